/**
 * goalfile for pi: hold the agent to the repository's goal files.
 *
 * Installed by `goalfile init` into `.pi/extensions/goalfile.ts`. Every decision is made by
 * the goalfile command line (it must be on the PATH pi sees); this file only calls it.
 *
 * - At the end of each agent run, it runs `goalfile hook stop --agent pi`, which verifies every
 *   active goal (writing the ledger entry, with this session's file for token accounting). While
 *   a goal is unmet, it sends the reason to the agent as a follow-up message, which starts a new
 *   agent run. It stops sending when the goal is met, blocked or exhausted, or when goalfile's
 *   loop guard lets the agent stop.
 * - Tools for the model: `goal_get`, `goal_verify`, `goal_block`, each running the goalfile
 *   command and returning its --json document.
 *
 * Held: interactive sessions and RPC mode (`pi --mode rpc`). Not held: print mode (`pi -p`,
 * `--mode json`), where pi ends the session before `agent_end` handlers can queue a follow-up.
 */

const GOALFILE = "goalfile";
const HOOK_TIMEOUT_MS = 600_000;
const TOOL_TIMEOUT_MS = 3_600_000;

type ExecResult = { stdout: string; stderr: string; code: number; killed?: boolean };
type Pi = {
  on(event: string, handler: (event: any, ctx: any) => unknown): void;
  exec(command: string, args: string[], options?: { cwd?: string; timeout?: number }): Promise<ExecResult>;
  sendUserMessage(content: string, options?: { deliverAs?: "steer" | "followUp" }): void;
  registerTool(tool: any): void;
};

const PATH = {
  type: "string",
  description:
    "The goal file, relative to the project root, e.g. goals/auth.md: one goal_get lists " +
    "(under goals/ or .zetetic/goals/); any other path is refused.",
};

export default function goalfile(pi: Pi) {
  let continuing = false; // the current run was started by our follow-up

  async function run(args: string[], cwd: string, timeout = TOOL_TIMEOUT_MS): Promise<ExecResult> {
    return pi.exec(GOALFILE, args, { cwd, timeout });
  }

  pi.on("input", async (event: any) => {
    if (event?.source !== "extension") continuing = false; // a person asked for something new
  });

  pi.on("agent_end", async (_event: any, ctx: any) => {
    let answer: { decision?: string; reason?: string; systemMessage?: string } = {};
    try {
      const input = JSON.stringify({
        session_id: ctx.sessionManager?.getSessionId?.() ?? null,
        transcript_path: ctx.sessionManager?.getSessionFile?.() ?? null,
        cwd: ctx.cwd,
        hook_event_name: "agent_end",
        stop_hook_active: continuing,
      });
      // `pi.exec` gives the child no stdin, so sh hands the hook input over as a here-document
      // and then becomes goalfile (`exec`, no pipeline): the process pi ends at its timeout,
      // with SIGTERM and nothing else, is goalfile itself, which then ends its checks' processes
      // and answers with a hold. (`printf | exec goalfile` left sh in between: pi's SIGTERM
      // ended sh alone, and goalfile and its checks ran on.) The value of "$1" is not expanded
      // again in the here-document, and no line of JSON text is `EOF`.
      const script = 'exec "$0" hook stop --agent pi <<EOF\n$1\nEOF\n';
      const done = await pi.exec("sh", ["-c", script, GOALFILE, input], {
        cwd: ctx.cwd,
        timeout: HOOK_TIMEOUT_MS,
      });
      answer = JSON.parse(done.stdout.trim() || "{}");
    } catch (error) {
      // fail open: a broken hook (or a session pi has already closed, as in print mode)
      // must not trap the agent
      answer = { systemMessage: `goalfile hook stop failed: ${error}` };
    }
    if (answer.decision === "block" && answer.reason) {
      continuing = true;
      pi.sendUserMessage(answer.reason, { deliverAs: "followUp" });
      return;
    }
    continuing = false;
    try {
      if (answer.systemMessage && ctx.hasUI) ctx.ui?.notify?.(answer.systemMessage, "info");
    } catch {
      // the session is gone; nothing to tell
    }
  });

  function result(done: ExecResult, ok: number[]) {
    const text = done.stdout.trim();
    if (!ok.includes(done.code) || !text.startsWith("{")) {
      throw new Error(`${done.stderr.trim() || "goalfile failed"}${text ? `\n${text}` : ""}`);
    }
    return { content: [{ type: "text", text }], details: JSON.parse(text) };
  }

  pi.registerTool({
    name: "goal_get",
    label: "Goal",
    description:
      "The goal to work on (`goalfile status --json`): the focused goal (`goalfile focus`), " +
      "else every active goal, each with its status, budget use, each criterion's latest " +
      "verdict and evidence, and the last verify entry. With `path`: that goal.",
    parameters: { type: "object", properties: { path: PATH }, additionalProperties: false },
    async execute(_id: string, params: { path?: string }, _signal: unknown, _update: unknown, ctx: any) {
      const args = ["status", "--json", "--in-project", ...(params.path ? ["--", params.path] : [])];
      const found = result(await run(args, ctx.cwd), [0, 1, 4, 5]);
      if (params.path) return found;
      const document = found.details as { focus?: string | null; goals?: any[] };
      const goals = (document.goals ?? []).filter((goal) =>
        document.focus ? goal.path === document.focus : goal.status === "active",
      );
      const chosen = { ...document, goals };
      return { content: [{ type: "text", text: JSON.stringify(chosen, null, 2) }], details: chosen };
    },
  });

  pi.registerTool({
    name: "goal_verify",
    label: "Verify goal",
    description:
      "Run every check of the goal as a real process and record the verdicts in its ledger " +
      "(`goalfile verify --json`). The goal is met only when this says `status: met`. " +
      "`no_write`: run the checks and write nothing.",
    parameters: {
      type: "object",
      properties: { path: PATH, no_write: { type: "boolean" } },
      required: ["path"],
      additionalProperties: false,
    },
    async execute(_id: string, params: { path: string; no_write?: boolean }, _s: unknown, _u: unknown, ctx: any) {
      const flags = ["--json", "--in-project", ...(params.no_write ? ["--no-write"] : [])];
      const args = ["verify", ...flags, "--", params.path];
      return result(await run(args, ctx.cwd), [0, 1, 4, 5]);
    },
  });

  pi.registerTool({
    name: "goal_block",
    label: "Block goal",
    description:
      "Mark the goal blocked by an external dependency (`goalfile block --json`): what blocks " +
      "it, and each workaround that was tried.",
    parameters: {
      type: "object",
      properties: {
        path: PATH,
        reason: { type: "string", description: "What blocks the goal." },
        tried: { type: "array", items: { type: "string" }, minItems: 1, description: "Each workaround tried." },
      },
      required: ["path", "reason", "tried"],
      additionalProperties: false,
    },
    async execute(
      _id: string,
      params: { path: string; reason: string; tried: string[] },
      _s: unknown,
      _u: unknown,
      ctx: any,
    ) {
      const args = ["block", "--json", "--in-project", `--reason=${params.reason}`];
      for (const item of params.tried) args.push(`--tried=${item}`);
      return result(await run([...args, "--", params.path], ctx.cwd), [0, 4]);
    },
  });
}
