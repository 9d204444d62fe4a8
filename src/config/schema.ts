// wsc.yaml: environments and the default one. Strict, like the bundle: a
// typo is an error, not a silently ignored key.
import * as z from 'zod';

const NAME = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_.-]*$/,
    'must start with a letter or digit and hold only letters, digits, `-`, `_` and `.`',
  );
const VAR_NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** The only form a token may take in wsc.yaml: the file is committed, the token is not. */
const ENV_REF_RE = /^\$\{env\.[A-Za-z_][A-Za-z0-9_]*\}$/;

const EnvironmentSchema = z
  .strictObject({
    embedded: z.boolean().optional().describe('Run against an in-process emulator; state in .wsc/state/<name>.json.'),
    baseUrl: z
      .string()
      .optional()
      .describe('API host, e.g. https://acme.cubecloud.dev (`/api/v1` is appended). May use ${env.NAME}.'),
    deploymentId: z.int().positive().optional().describe('Numeric deployment id (required for a remote environment).'),
    token: z
      .string()
      .regex(
        ENV_REF_RE,
        'must be `${env.NAME}`: wsc.yaml is committed, so the token itself must come from the environment',
      )
      .optional()
      .describe('The API token, read from an environment variable: `${env.NAME}`. WSC_TOKEN overrides it.'),
    authScheme: z.enum(['bearer', 'api-key', 'raw']).optional().describe('Authorization header form (default bearer).'),
    publicIds: z
      .enum(['as-is', 'per-deployment'])
      .optional()
      .describe('`per-deployment`: derive each live publicId from the bundle publicId and the deployment id.'),
    vars: z
      .record(z.string().regex(VAR_NAME_RE, 'must be a name of letters, digits and `_`'), z.unknown())
      .optional()
      .describe('Values for ${vars.NAME} in the bundle. Strings may use ${env.NAME}.'),
    prune: z
      .boolean()
      .optional()
      .describe('Delete what this bundle recorded as its own and no longer holds (like --prune). Needs `bundle:`.'),
    uiEdits: z
      .enum(['keep', 'revert', 'block'])
      .optional()
      .describe(
        'What apply does with a managed field edited outside wsc since the last apply (needs `bundle:`): keep ' +
          '(default: kept unless the bundle changed it too, then the resource is blocked), revert (the ' +
          "bundle's value is written), block (the resource is left alone, exit 5). --ui-edits overrides it.",
      ),
    semanticCheck: z
      .boolean()
      .optional()
      .describe(
        "false: plan and apply do not check the members reports and dashboards name against the deployment's " +
          'data model (like --skip-semantic-check). Default true.',
      ),
  })
  .describe('One target environment.');

export const WscConfigSchema = z
  .strictObject({
    bundle: NAME.max(100)
      .optional()
      .describe(
        "The bundle's name, in the ownership record of everything apply writes (prune and UI-edit marks need it).",
      ),
    defaultEnvironment: z.string().optional().describe('Environment used without --env / WSC_ENV.'),
    folderLookAlikes: z
      .enum(['allow', 'error'])
      .optional()
      .describe(
        'A folder path differing from another (of the bundle, or live) only in case, white space or look-alike ' +
          'letters is an error (`error`, the default: it would be a second folder); `allow`: the bundle wants ' +
          'both, a warning.',
      ),
    environments: z.record(NAME, EnvironmentSchema).describe('Target environments by name.'),
  })
  .describe('wsc.yaml: environments of a wsc bundle.');

export type WscConfig = z.infer<typeof WscConfigSchema>;
export type EnvironmentConfig = z.infer<typeof EnvironmentSchema>;
