// A user attribute create that meets 409: another run (or person) created
// the same name between the plan and this request. Names are the identity of
// user attributes, so the existing one is the resource the file means: it is
// read back and, where its updatable fields differ from what was sent,
// updated. Only a different `type` (create-only) cannot be reconciled.
import { USER_ATTRIBUTE_INPUT_FIELDS, type UserAttribute, type UserAttributeUpdateInput } from '../../domain/wire.js';
import { ApiError, type SourcePos } from '../../errors.js';
import type { ApiPort } from '../api-port.js';
import { rewrap } from './report-create.js';

type CreateBody = Parameters<ApiPort['createUserAttribute']>[0];

/** The updatable fields of `sent` that `live` holds differently (absent and null are the same). */
function userAttributeDiff(sent: CreateBody, live: UserAttribute): UserAttributeUpdateInput {
  const diff: UserAttributeUpdateInput = {};
  for (const f of USER_ATTRIBUTE_INPUT_FIELDS) {
    if (!Object.hasOwn(sent, f)) continue;
    const want = sent[f] ?? null;
    if (want !== ((live as Record<string, unknown>)[f] ?? null)) diff[f] = want;
  }
  return diff;
}

export async function createUserAttributeConverging(
  port: ApiPort,
  body: CreateBody,
  ctx: { address: string; pos?: SourcePos },
): Promise<{ id: number; recovered: boolean }> {
  try {
    return { id: (await port.createUserAttribute(body)).id, recovered: false };
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 409)) throw e;
    let existing: UserAttribute | undefined;
    try {
      existing = await port.findUserAttributeByName(body.name);
    } catch {
      throw e; // the read-back failed too: the conflict says more
    }
    if (existing === undefined) throw e;
    if (existing.type !== body.type) {
      const file = ctx.pos ? ctx.pos.file : 'the bundle';
      throw rewrap(
        e,
        'user_attribute_type_differs',
        `${ctx.address}: another run created user attribute "${body.name}" (id ` +
          `${existing.id}) with type ${existing.type}, ` +
          `not ${body.type}; a type cannot be changed by update.`,
        `Run \`wsc plan\` again to see the difference, then change \`type\` in ` +
          `${file} to ${existing.type}, or give the attribute another name.`,
      );
    }
    const diff = userAttributeDiff(body, existing);
    if (Object.keys(diff).length === 0) return { id: existing.id, recovered: true };
    return { id: (await port.updateUserAttribute(existing.id, diff)).id, recovered: true };
  }
}
