/**
 * goalfile for pi: hold the agent to the repository's goal files.
 *
 * Installed by `goalfile init` into `.pi/extensions/goalfile/` (this file and the package.json
 * that names it). Every decision is made by the goalfile command line (it must be on the PATH
 * pi sees); this file only calls it.
 *
 * - At the end of each agent run, it runs `goalfile hook stop --agent pi`, which verifies every
 *   active goal (writing the ledger entry, with this session's file for token accounting). While
 *   a goal is unmet, it sends the reason to the agent as a follow-up message, which starts a new
 *   agent run. It stops sending when the goal is met, blocked or exhausted, or when goalfile's
 *   loop guard lets the agent stop.
 * - When a session starts (pi's `session_start`, awaited before the first agent run), it runs
 *   `goalfile hook start --agent pi`, which records the branch and commit HEAD is on and the
 *   active goals, so the first `agent_end` compares with what was there before the agent acted.
 *   The line it prints when the session has a record is kept in the session file as a custom
 *   entry (`pi.appendEntry`, not in the model's context).
 * - Tools for the model: `goal_get`, `goal_verify`, `goal_block`, each running the goalfile
 *   command and returning its --json document.
 *
 * Held: interactive sessions and RPC mode (`pi --mode rpc`). Not held: print mode (`pi -p`,
 * `--mode json`), where pi ends the session before `agent_end` handlers can queue a follow-up.
 *
 * Plain JavaScript, an ES module (`.mjs`): pi's loader (jiti) imports it as it is. A TypeScript
 * file would be transpiled, and jiti keeps what it transpiles in a cache folder (`/tmp/jiti`)
 * that any process of the user can write to, so a file put there would run instead of this one.
 */

const GOALFILE = "goalfile";
const HOOK_TIMEOUT_MS = 600_000;
const START_TIMEOUT_MS = 60_000;
const TOOL_TIMEOUT_MS = 3_600_000;

/**
 * @typedef {{ stdout: string, stderr: string, code: number, killed?: boolean }} ExecResult
 * @typedef {{
 *   on(event: string, handler: (event: any, ctx: any) => unknown): void,
 *   exec(command: string, args: string[], options?: { cwd?: string, timeout?: number }): Promise<ExecResult>,
 *   sendUserMessage(content: string, options?: { deliverAs?: "steer" | "followUp" }): void,
 *   appendEntry(customType: string, data?: unknown): void,
 *   registerTool(tool: any): void,
 * }} Pi
 */

const PATH = {
  type: "string",
  description:
    "The goal file, relative to the project root, e.g. goals/auth.md: one goal_get lists " +
    "(under goals/ or .zetetic/goals/); any other path is refused.",
};

/** @param {Pi} pi */
export default function goalfile(pi) {
  let continuing = false; // the current run was started by our follow-up

  /**
   * @param {string[]} args
   * @param {string} cwd
   * @returns {Promise<ExecResult>}
   */
  async function run(args, cwd, timeout = TOOL_TIMEOUT_MS) {
    return pi.exec(GOALFILE, args, { cwd, timeout });
  }

  /**
   * @param {string} verb `stop` or `start`
   * @param {object} fields the hook input
   * @param {string} cwd
   * @param {number} timeout
   * @returns {Promise<ExecResult>}
   */
  async function hook(verb, fields, cwd, timeout) {
    // `pi.exec` gives the child no stdin, so sh hands the hook input over as a here-document
    // and then becomes goalfile (`exec`, no pipeline): the process pi ends at its timeout,
    // with SIGTERM and nothing else, is goalfile itself, which then ends its checks' processes
    // and answers with a hold. (`printf | exec goalfile` left sh in between: pi's SIGTERM
    // ended sh alone, and goalfile and its checks ran on.) The value of "$1" is not expanded
    // again in the here-document, and no line of JSON text is `EOF`.
    const script = `exec "$0" hook ${verb} --agent pi <<EOF\n$1\nEOF\n`;
    return pi.exec("sh", ["-c", script, GOALFILE, JSON.stringify(fields)], { cwd, timeout });
  }

  pi.on("session_start", async (_event, ctx) => {
    try {
      const done = await hook(
        "start",
        {
          session_id: ctx.sessionManager?.getSessionId?.() ?? null,
          transcript_path: ctx.sessionManager?.getSessionFile?.() ?? null,
          cwd: ctx.cwd,
          hook_event_name: "session_start",
        },
        ctx.cwd,
        START_TIMEOUT_MS,
      );
      // when the session has a record, its line is kept in the session file (a custom entry,
      // never sent to the model), where a stop that finds the record deleted sees there was one
      const answer = JSON.parse(done.stdout.trim() || "{}");
      const context = answer?.hookSpecificOutput?.additionalContext;
      if (typeof context === "string" && context) pi.appendEntry("goalfile", { context });
    } catch {
      // no record (or its line not kept): the first agent_end compares with nothing, as before
    }
  });

  pi.on("input", async (event) => {
    if (event?.source !== "extension") continuing = false; // a person asked for something new
  });

  pi.on("agent_end", async (_event, ctx) => {
    /** @type {{ decision?: string, reason?: string, systemMessage?: string }} */
    let answer = {};
    try {
      const input = {
        session_id: ctx.sessionManager?.getSessionId?.() ?? null,
        transcript_path: ctx.sessionManager?.getSessionFile?.() ?? null,
        cwd: ctx.cwd,
        hook_event_name: "agent_end",
        stop_hook_active: continuing,
      };
      const done = await hook("stop", input, ctx.cwd, HOOK_TIMEOUT_MS);
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

  /**
   * @param {ExecResult} done
   * @param {number[]} ok
   */
  function result(done, ok) {
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
    /** @param {string} _id @param {{ path?: string }} params */
    async execute(_id, params, _signal, _update, ctx) {
      const args = ["status", "--json", "--in-project", ...(params.path ? ["--", params.path] : [])];
      const found = result(await run(args, ctx.cwd), [0, 1, 4, 5]);
      if (params.path) return found;
      /** @type {{ focus?: string | null, goals?: any[] }} */
      const document = found.details;
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
    /** @param {string} _id @param {{ path: string, no_write?: boolean }} params */
    async execute(_id, params, _s, _u, ctx) {
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
    /** @param {string} _id @param {{ path: string, reason: string, tried: string[] }} params */
    async execute(_id, params, _s, _u, ctx) {
      const args = ["block", "--json", "--in-project", `--reason=${params.reason}`];
      for (const item of params.tried) args.push(`--tried=${item}`);
      return result(await run([...args, "--", params.path], ctx.cwd), [0, 4]);
    },
  });
}
