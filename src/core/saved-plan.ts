// The saved-plan file (`wsc plan --out FILE`, `wsc apply FILE`): the plan
// with its requests and fingerprints, and where it was made for. It never
// holds a token: the environment is copied field by field, never spread.
import * as z from 'zod';
import { InternalError, UsageError } from '../errors.js';
import { buildGraph } from './plan/graph.js';
import type { Plan } from './plan-model.js';
import type { PublicIdMode } from './model.js';

const SAVED_PLAN_FORMAT = 1;

export interface SavedPlanEnvironment {
  name: string;
  baseUrl?: string;
  deploymentId: number;
  embedded: boolean;
  publicIds: PublicIdMode;
}

export interface SavedPlan {
  savedPlanFormat: 1;
  wscVersion: string;
  createdAt: string;
  environment: SavedPlanEnvironment;
  /**
   * The bundle directory, relative to the directory wsc ran in. Apply reads
   * the bundle again and re-derives the requests; these only narrow them.
   */
  bundleDir?: string;
  /** The --target addresses the plan was limited to. */
  targets?: string[];
  /** Whether the semantic check ran when the plan was saved (apply PLANFILE does not run it again). */
  semanticCheck?: SavedSemanticCheck;
  plan: Plan;
}

/**
 * The flags a saved plan was made with, as `wsc plan` takes them: to make it again as it was. Its policy for UI
 * edits is a flag only where it is not already the environment's (`envPolicy`, wsc.yaml's `uiEdits`).
 */
export function savedPlanFlags(saved: SavedPlan, envPolicy: string | undefined) {
  const policy = saved.plan.uiEdits;
  return {
    target: saved.targets ?? [],
    prune: saved.plan.prune?.enabled === true,
    ...(policy !== undefined && policy !== (envPolicy ?? 'keep') ? { uiEdits: policy } : {}),
    skipSemanticCheck: saved.semanticCheck?.status === 'off',
  };
}

/** The semantic check of a saved plan: its status, and why it did not run. */
export interface SavedSemanticCheck {
  status: 'off' | 'none' | 'unavailable' | 'checked';
  reason?: string;
}

const Json: z.ZodType<unknown> = z.unknown();
const PublicIds = z.enum(['as-is', 'per-deployment']);
const Pos = z.object({ file: z.string(), line: z.int(), col: z.int() });
const Action = z.enum(['create', 'update', 'adopt', 'publish', 'noop', 'record', 'delete', 'blocked']);
const WorkbookRef = z.object({ $workbook: z.string() });
const Hashes = z.record(z.string(), z.string());
const DraftParts = z.object({ widgets: Hashes, order: z.string(), layout: Hashes, members: Hashes });
const Record = z
  .object({
    bundle: z.string(),
    fields: z.record(z.string(), z.string().nullable()),
    values: z.record(z.string(), Json).optional(),
    draft: DraftParts.optional(),
    name: z.string().optional(),
    file: z.string().optional(),
    of: z
      .union([
        z.strictObject({ deployment: z.int(), publicId: z.string() }),
        z.strictObject({ deployment: z.int(), slug: z.string() }),
      ])
      .optional(),
  })
  .optional();
const Operation = z.discriminatedUnion('op', [
  z.object({
    op: z.literal('upsertWorkbook'),
    slug: z.string(),
    body: z.record(z.string(), Json),
    record: Record,
    reread: z.object({ workbookId: z.int(), draft: DraftParts }).optional(),
  }),
  z.object({ op: z.literal('adoptWorkbook'), workbookId: z.int(), slug: z.string() }),
  z.object({ op: z.literal('createReport'), body: z.record(z.string(), Json), record: Record }),
  z.object({
    op: z.literal('updateReport'),
    reportId: z.int(),
    body: z.record(z.string(), Json),
    record: Record,
    metaKeys: z.array(z.string()).optional(),
  }),
  z.object({ op: z.literal('deleteReport'), reportId: z.int() }),
  z.object({ op: z.literal('deleteWorkbook'), workbookId: z.int() }),
  z.object({
    op: z.literal('publishWorkbook'),
    workbook: z.union([z.int(), WorkbookRef]),
    body: z.record(z.string(), Json),
  }),
  z.object({ op: z.literal('createUserAttribute'), body: z.looseObject({ name: z.string(), type: z.string() }) }),
  z.object({ op: z.literal('updateUserAttribute'), id: z.int(), body: z.record(z.string(), Json) }),
  z.object({
    op: z.literal('createFolder'),
    name: z.string(),
    parentId: z.union([z.int(), z.null(), z.strictObject({ $folder: z.string() })]),
    nth: z.int().min(2).optional(),
  }),
]);
const Request = z.object({
  id: z.string(),
  address: z.string(),
  phase: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]),
  operation: Operation,
  dependsOn: z.array(z.string()),
});
const Change = z.object({
  address: z.string(),
  kind: z.enum(['workbook', 'report', 'user-attribute', 'folder']),
  actions: z.array(Action).min(1),
  liveId: z.int().optional(),
  livePublicId: z.string().optional(),
  changes: z.array(
    z.object({
      path: z.string(),
      before: Json.optional(),
      after: Json.optional(),
      line: z.int().min(1).optional(),
      col: z.int().min(1).optional(),
      dashboard: z.looseObject({}).optional(),
      shown: z.object({ before: Json.optional(), after: Json.optional() }).optional(),
    }),
  ),
  requests: z.array(Request),
  pos: Pos.optional(),
  uiEdits: z.array(z.string()).optional(),
  kept: z.array(z.string()).optional(),
  blocked: z
    .object({
      reason: z.enum(['ui-edit', 'record-missing', 'record-malformed', 'other-bundle', 'other-resource']),
      message: z.string(),
      flag: z.string(),
      explicit: z.literal(true).optional(),
    })
    .optional(),
  was: z.object({ name: z.string().optional(), file: z.string().optional() }).optional(),
  note: z.string().optional(),
});
const Fingerprint = z.object({
  address: z.string(),
  absent: z.literal(true).optional(),
  id: z.int().optional(),
  updatedAt: z.string().optional(),
  hash: z.string().optional(),
  by: z.enum(['identity', 'id']).optional(),
});
const Count = z.int().min(0);
const PlanSchema = z.object({
  uiEdits: z.enum(['keep', 'revert', 'block']).optional(),
  formatVersion: z.literal(1),
  environment: z.string(),
  deploymentId: z.int(),
  publicIds: PublicIds,
  changes: z.array(Change),
  summary: z.object({
    create: Count,
    update: Count,
    adopt: Count,
    publish: Count,
    noop: Count,
    record: Count.optional(),
    delete: Count.optional(),
    blocked: Count.optional(),
    unmanaged: z.object({ workbooks: Count, reports: Count, userAttributes: Count }),
  }),
  fingerprints: z.array(Fingerprint),
  bundle: z.string().optional(),
  prune: z
    .object({
      candidates: Count,
      enabled: z.boolean(),
      withheld: z.string().optional(),
      held: z.array(z.object({ address: z.string(), reason: z.string() })).optional(),
    })
    .optional(),
  warnings: z
    .array(
      z.object({
        code: z.enum(['duplicate-folder', 'folder-left-empty', 'report-still-charted', 'similar-folder']),
        address: z.string(),
        message: z.string(),
      }),
    )
    .optional(),
});
const SavedPlanSchema = z.object({
  savedPlanFormat: z.literal(SAVED_PLAN_FORMAT),
  wscVersion: z.string(),
  createdAt: z.string(),
  environment: z.object({
    name: z.string(),
    baseUrl: z.string().optional(),
    deploymentId: z.int(),
    embedded: z.boolean(),
    publicIds: PublicIds,
  }),
  bundleDir: z.string().optional(),
  targets: z.array(z.string()).optional(),
  semanticCheck: z
    .object({ status: z.enum(['off', 'none', 'unavailable', 'checked']), reason: z.string().optional() })
    .optional(),
  plan: PlanSchema,
});

/** The file's text: the saved plan as pretty JSON, ending in a newline. */
export function serializeSavedPlan(input: {
  wscVersion: string;
  createdAt: string;
  /** A ResolvedEnvironment may be passed: only the fields above are copied. */
  environment: SavedPlanEnvironment;
  bundleDir?: string;
  targets?: readonly string[];
  semanticCheck?: SavedSemanticCheck;
  plan: Plan;
}): string {
  const e = input.environment;
  const saved: SavedPlan = {
    savedPlanFormat: SAVED_PLAN_FORMAT,
    wscVersion: input.wscVersion,
    createdAt: input.createdAt,
    environment: {
      name: e.name,
      deploymentId: e.deploymentId,
      embedded: e.embedded,
      publicIds: e.publicIds,
      ...(e.baseUrl !== undefined ? { baseUrl: e.baseUrl } : {}),
    },
    ...(input.bundleDir !== undefined ? { bundleDir: input.bundleDir } : {}),
    ...(input.targets !== undefined && input.targets.length > 0 ? { targets: [...input.targets] } : {}),
    ...(input.semanticCheck !== undefined ? { semanticCheck: input.semanticCheck } : {}),
    plan: input.plan,
  };
  return `${JSON.stringify(saved, null, 2)}\n`;
}

export function parseSavedPlan(text: string, file: string): SavedPlan {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw invalid(file, 'it is not JSON');
  }
  const format = (raw as { savedPlanFormat?: unknown } | null)?.savedPlanFormat;
  if (raw !== null && typeof raw === 'object' && typeof format === 'number' && format !== SAVED_PLAN_FORMAT) {
    throw invalid(file, `it has savedPlanFormat ${format}, and this wsc reads format ${SAVED_PLAN_FORMAT}`);
  }
  const parsed = SavedPlanSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
    throw invalid(file, `${issue.message}${where}`);
  }
  const saved = parsed.data as SavedPlan;
  // The schema checks each request; whether they form a runnable whole
  // (unique ids, known dependencies, no cycle) is the executor's graph's
  // check. For a plan wsc just computed a failure there is wsc's bug; for a
  // file it means the file was edited: the user's problem, exit 3.
  try {
    buildGraph(saved.plan);
  } catch (e) {
    if (e instanceof InternalError) throw invalid(file, e.message.replace(/\.$/, ''));
    throw e;
  }
  return saved;
}

function invalid(file: string, why: string): UsageError {
  return new UsageError(`${file} is not a saved plan of wsc: ${why}.`, {
    code: 'saved_plan_invalid',
    hint: 'Save a plan with `wsc plan --out FILE` and pass that file, unchanged, to `wsc apply FILE`.',
  });
}
