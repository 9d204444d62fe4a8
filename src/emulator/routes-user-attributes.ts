// User attributes: account-level. Anyone in the account may list them (or
// admins only, with the emulator's `userAttributeReads: 'admin'`: the API
// does not say which); creating and updating needs the admin role. A
// duplicate name is a 409.
import { UserAttributeCreateInput, UserAttributeUpdateInput } from '../domain/wire.js';
import { requireAdmin } from './access.js';
import { numericParam, type Ctx } from './context.js';
import { conflict, notFound, validate } from './http-error.js';
import { afterId, countVisible, idCursor, pageOf, pageSize } from './paging.js';
import { pageAnswer, renderUserAttribute } from './render.js';
import { userAttributeOf } from './seed-records.js';
import type { UserAttributeRec } from './types.js';

/** GET /api/v1/user-attributes: newest first (id DESC), cursor-paged; filters `name`, `type`. */
export function listUserAttributes(ctx: Ctx): unknown {
  const { store, user, query } = ctx;
  if (ctx.userAttributeReads === 'admin') requireAdmin(user, 'list user attributes');
  const first = pageSize(ctx);
  const after = afterId(query, 'DESC');
  const name = query.get('name');
  const type = query.get('type');
  const visible = (a: UserAttributeRec) =>
    a.accountId === user.accountId && (name === null || a.name === name) && (type === null || a.type === type);
  const index = store.userAttributesById;
  const page = pageOf(index, { dir: 'DESC', first, visible, after });
  const text = (a: UserAttributeRec) => JSON.stringify(renderUserAttribute(a));
  return pageAnswer(page, countVisible(index.items, visible), text, idCursor('DESC'));
}

export function createUserAttribute(ctx: Ctx): unknown {
  const { store, user } = ctx;
  requireAdmin(user, 'create user attributes');
  const input = validate(UserAttributeCreateInput, ctx.body);
  for (const a of store.userAttributes.values()) {
    if (a.accountId === user.accountId && a.name === input.name) {
      throw conflict(`A user attribute named "${input.name}" already exists (id ${a.id})`);
    }
  }
  const rec = userAttributeOf({ ...input, id: store.nextId('userAttribute'), accountId: user.accountId });
  store.insertUserAttribute(rec);
  ctx.changed();
  return renderUserAttribute(rec);
}

export function updateUserAttribute(ctx: Ctx): unknown {
  const { store, user } = ctx;
  const idRaw = ctx.params['id'] ?? '';
  const rec = store.userAttributes.get(numericParam(ctx, 'id'));
  if (!rec || rec.accountId !== user.accountId) throw notFound(`User attribute ${idRaw} not found`);
  requireAdmin(user, 'update user attributes');
  const input = validate(UserAttributeUpdateInput, ctx.body);
  let changed = false;
  for (const f of ['displayName', 'description', 'defaultValue'] as const) {
    if (!Object.hasOwn(ctx.body, f)) continue;
    const v = input[f] ?? null;
    if (rec[f] !== v) {
      rec[f] = v;
      changed = true;
    }
  }
  if (changed) ctx.changed();
  return renderUserAttribute(rec);
}
