import * as z from 'zod';
import { UserAttributeType } from '../wire.js';

export const UserAttributeSchema = z
  .strictObject({
    kind: z.literal('UserAttribute'),
    name: z
      .string()
      .regex(/\S/, 'must not be empty')
      .describe('Identity: the attribute is found by name (account-level).'),
    id: z.int().positive().optional().describe('Address the attribute by id instead of by name.'),
    type: UserAttributeType.optional().describe('Create-only; default `string`.'),
    displayName: z.string().optional(),
    description: z.string().optional(),
    defaultValue: z.string().optional(),
  })
  .describe('A user attribute (wsc bundle document).');
