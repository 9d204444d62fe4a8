// What `plan --pictures DIR` and `--with-data` ask together: `--with-data` draws the pictures of `--pictures`,
// so alone it would do nothing, and the plan would seem to have honoured it. Checked before anything is read.
import { UsageError } from '../../errors.js';

export function checkPictureFlags(opts: { withData?: boolean | undefined; pictures?: string | undefined }): void {
  if (opts.withData !== true || opts.pictures !== undefined) return;
  throw new UsageError(
    '--with-data draws the pictures of --pictures DIR with data: without --pictures, nothing is drawn.',
    {
      code: 'with_data_without_pictures',
      hint: 'Add --pictures DIR (the markdown plan names the pictures), or leave --with-data out.',
    },
  );
}
