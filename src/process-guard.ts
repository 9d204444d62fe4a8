// The end of the process, guarded: Node exits when nothing is left to wait
// for, even if the command's promise never settled (a request that no
// socket will ever answer, a callback never called). Without this guard such
// a run ends with no exit code set, i.e. 0, and prints nothing: a false
// success. With it, an unfinished command is an internal error, exit 1.

export interface Guard {
  /** The command settled: the process may end as it likes. */
  done(): void;
}

export function guardUnfinished(proc: NodeJS.Process, write: (text: string) => void): Guard {
  let finished = false;
  const onBeforeExit = () => {
    if (finished) return;
    finished = true;
    write(
      'internal error: wsc stopped before the command finished (it was left ' +
        'waiting for something that can no longer happen).\n' +
        'This is a bug in wsc. Please report it with the command you ran; what ' +
        'was written before this line may be incomplete.\n',
    );
    proc.exitCode = 1;
  };
  proc.on('beforeExit', onBeforeExit);
  return {
    done() {
      finished = true;
      proc.off('beforeExit', onBeforeExit);
    },
  };
}
