// A 403 on a write that moves a workbook or report to another folder: the
// server's message names one missing access; moving needs two (specification,
// upsert rule 6: manage access to the workbook and edit access to the
// destination folder; a report needs edit access to both), so the error
// names both, and the folders by path.
import { ApiError } from '../../errors.js';
import type { Plan, PlannedRequest } from '../plan-model.js';
import { rewrap } from './report-create.js';

export function explainMove(e: unknown, req: PlannedRequest, body: Record<string, unknown>, plan: Plan): unknown {
  if (!(e instanceof ApiError) || e.status !== 403 || !('folderId' in body)) return e;
  const change = plan.changes.find((c) => c.address === req.address);
  const move = change?.changes.find((c) => c.path === 'folder' || c.path === 'folderId');
  const exists = change?.liveId !== undefined;
  const dest =
    move?.path === 'folder' ? `folder ${String(move.after)}` : `folder ${String(body['folderId'] ?? 'root')}`;
  const from =
    move?.before !== undefined
      ? ` from ${move.path === 'folder' ? 'folder ' : 'folder id '}${String(move.before)}`
      : '';
  const isWorkbook = req.operation.op === 'upsertWorkbook';
  const own = isWorkbook
    ? exists
      ? 'manage access to the workbook'
      : 'the AI BI User role'
    : 'edit access to the report';
  const what = exists ? `Moving ${req.address}${from} to ${dest}` : `Creating ${req.address} in ${dest}`;
  const server = e.serverMessage ? ` (the server said: ${e.serverMessage})` : '';
  return rewrap(
    e,
    e.code,
    `${what} was refused (403): it needs ${own} and edit access to the destination ${dest}${server}.`,
    `Ask for ${own} and for edit access to ${dest}, or leave \`folder\` out of the file to keep it where it is.`,
  );
}
