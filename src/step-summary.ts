// GITHUB_STEP_SUMMARY: `wsc plan` adds its markdown plan to the job's summary
// page on GitHub Actions, redacted like everything wsc writes.
import { causeOf } from './domain/fs-cause.js';
import { appendFile } from 'node:fs/promises';
import { redact } from './redact.js';

/** Adds `markdown` to the summary file; resolves to why it could not (in words, with the code), else undefined. */
export async function appendStepSummary(file: string, markdown: string): Promise<string | undefined> {
  try {
    await appendFile(file, redact(`${markdown}\n`), 'utf8');
    return undefined;
  } catch (e) {
    return causeOf(e);
  }
}
