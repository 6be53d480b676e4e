"""A process that swaps a goal file while the Stop hook reads it, as an agent can leave one
running: inotify on the goal's folder; at the first close of the goal file after a read it
puts ``decoy`` at its path, at the second the real file back. Run as
``python swap_watcher.py GOAL DECOY ARMED``: ``ARMED`` is created once it watches."""

import ctypes
import os
import struct
import sys


def main() -> None:
    goal, decoy, armed = sys.argv[1:4]
    folder, name = os.path.split(os.path.abspath(goal))
    with open(goal, "rb") as file:
        real = file.read()
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.inotify_init1(0)
    libc.inotify_add_watch(fd, folder.encode(), 0x10)  # IN_CLOSE_NOWRITE
    open(armed, "w").close()
    closes = 0
    while closes < 2:
        data, i = os.read(fd, 4096), 0
        while i < len(data):
            length = struct.unpack_from("iIII", data, i)[3]
            seen = data[i + 16 : i + 16 + length].rstrip(b"\0").decode()
            i += 16 + length
            if seen != name:
                continue
            closes += 1
            spare = os.path.join(folder, ".spare")
            with open(spare, "wb") as out:
                if closes == 1:
                    with open(decoy, "rb") as file:
                        out.write(file.read())
                else:
                    out.write(real)
            os.rename(spare, goal)


if __name__ == "__main__":
    main()
