"""The /proc walk the forged-answer attacks share (a check's code finding the Stop hook's
processes and their pipes), as Python source each attack script starts with after its
imports of ``os``."""

PROC_WALK = r"""
def parent(pid):
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("PPid:"):
                return int(line.split()[1])
    return 0

def command(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode()
    except OSError:
        return ""

def pipes(pid):
    found = {}
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("pipe:"):
            found[int(fd)] = target
    return found
"""
