// What wsc checks of a listed report (domain/wire.ts `Report`): every member
// plan, apply and export read; the owners, permissions and access lists
// (read by none of them) pass through as sent. The description's whole shape
// (`ReportDescribed`) still holds the emulator's answers (test/emulator).
import { describe, expect, it } from 'vitest';
import { Report, ReportDescribed } from '../../src/domain/wire.js';
import { wireReport } from '../helpers/wire.js';

const unread = {
  user: 'not an owner',
  refreshedByUser: 42,
  userId: 'one',
  createdBy: null,
  refreshedBy: 'x',
  canEdit: 'yes',
  canManage: [],
  rolesWithAccess: 'all',
  externalWorkbookPlacements: {},
};

describe('a listed report', () => {
  it('is read when only members wsc never reads are wrong, and kept as sent', () => {
    const item = wireReport(7, unread);
    const r = Report.safeParse(item);
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject(unread);
    // The description's shape refuses it: the emulator could not answer so.
    expect(ReportDescribed.safeParse(item).success).toBe(false);
    expect(ReportDescribed.safeParse(wireReport(7)).success).toBe(true);
  });

  it.each([
    ['name', 5],
    ['publicId', 'short'],
    ['sqlQuery', ['select 1']],
    ['jsonQuery', { measures: [] }],
    ['folderId', 'f'],
    ['workbookId', 1.5],
    ['meta', 'chart'],
    ['pivotItems', { rows: 'a' }],
    ['type', 'DASHBOARD'],
    ['updatedAt', 0],
  ])('is refused when %s, a member wsc reads, is wrong', (key, value) => {
    expect(Report.safeParse(wireReport(7, { [key]: value })).success).toBe(false);
  });
});
