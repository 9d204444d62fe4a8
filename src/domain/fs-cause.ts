// A file-system (or socket) error in words, for messages that name the file or port and why it failed (`no
// such file or directory (ENOENT)`, not `ENOENT` alone). Pure.

/** A file-system or socket error code in words. */
export function fsCause(code: string): string {
  const words: Record<string, string> = {
    EACCES: 'permission denied',
    EPERM: 'operation not permitted',
    ENOSPC: 'no space left on the device',
    EDQUOT: 'disk quota exceeded',
    EROFS: 'read-only file system',
    ENOENT: 'no such file or directory',
    ENOTDIR: 'a part of the path is not a directory',
    EISDIR: 'is a directory',
    EMFILE: 'too many open files',
    EIO: 'input/output error',
    EADDRINUSE: 'the port is in use',
  };
  return words[code] ? `${words[code]} (${code})` : code;
}

/** What a file-system call failed with, in words when it has a known code. */
export function causeOf(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? fsCause(code) : String(e);
}
