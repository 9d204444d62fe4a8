// The emulator's whole state, as persisted to the state file and as accepted
// as a seed. A seed may leave most fields out (the loader fills them); a
// snapshot or state file always has every field.
import type { CubeModel } from './cube-model.js';

export type Role = 'admin' | 'ai-bi-user' | 'viewer';
export type AccessLevel = 'view' | 'edit' | 'manage';
export type GrantResourceType = 'workbook' | 'report' | 'folder';

export interface SeedDeployment {
  id: number;
  /** publicIds are unique per account; default 1. */
  accountId?: number;
  name?: string;
}

export interface SeedUser {
  id: number;
  email: string;
  firstName?: string | null;
  role: Role;
  /** Tokens that authenticate as this user (any of `Bearer T`, `Api-Key T`, `T`). */
  tokens: string[];
  accountId?: number;
  /** Restrict the user to these deployments (403 elsewhere); default: all of the account. */
  deploymentIds?: number[];
}

export interface SeedGrant {
  userId: number;
  resourceType: GrantResourceType;
  resourceId: number;
  level: AccessLevel;
}

export interface SeedFolder {
  id: number;
  deploymentId: number;
  name: string;
  parentId?: number | null;
  userId?: number;
  position?: number;
  createdAt?: string;
  updatedAt?: string;
}

export interface SeedWorkbook {
  id: number;
  deploymentId: number;
  name?: string;
  slug?: string | null;
  folderId?: number | null;
  meta?: Record<string, unknown>;
  calculatedFields?: Record<string, unknown>;
  userId?: number;
  createdBy?: number;
  createdAt?: string;
  updatedAt?: string;
  isFavorite?: boolean;
  /** A draft kept only at the top level (as some servers store UI-made dashboards); `meta.dashboardDraft` wins. */
  dashboardDraft?: Record<string, unknown> | null;
  dashboardPublished?: Record<string, unknown> | null;
  publishedDashboard?: Record<string, unknown> | null;
}

export interface SeedReport {
  id: number;
  deploymentId: number;
  /**
   * A 12-char id. A placeholder-shaped one (wire PLACEHOLDER_PUBLIC_ID_RE, e.g.
   * `000000legacy`) marks a legacy report with no stable publicId; several
   * legacy reports may show the same placeholder. Omitted: one is generated.
   * null: the report has none at all (the description makes it optional),
   * and answers leave the member out.
   */
  publicId?: string | null;
  name?: string;
  title?: string | null;
  description?: string | null;
  source?: string | null;
  folderId?: number | null;
  workbookId?: number | null;
  sqlQuery?: string | null;
  jsonQuery?: string | null;
  meta?: Record<string, unknown> | null;
  pivotItems?: Record<string, unknown> | null;
  endResultCell?: string | null;
  resultLocation?: string | null;
  externalWorkbookId?: string | null;
  userId?: number;
  createdBy?: number;
  createdAt?: string;
  updatedAt?: string;
  version?: number;
}

export interface SeedUserAttribute {
  id: number;
  accountId?: number;
  name: string;
  type: string;
  displayName?: string | null;
  description?: string | null;
  defaultValue?: string | null;
}

export interface SeedCounters {
  workbook: number;
  report: number;
  folder: number;
  userAttribute: number;
  dashboard: number;
  dashboardVersion: number;
  reportSnapshot: number;
  /** Last timestamp issued (ms since epoch): updatedAt strictly increases. */
  lastTimestampMs: number;
}

export interface SeedState {
  formatVersion?: 1;
  deployments: SeedDeployment[];
  users: SeedUser[];
  grants?: SeedGrant[];
  folders?: SeedFolder[];
  workbooks?: SeedWorkbook[];
  reports?: SeedReport[];
  userAttributes?: SeedUserAttribute[];
  /** Next ids to assign; derived from the data when absent. */
  counters?: Partial<SeedCounters>;
}

// Internal, normalised records: a seed entry with every field present.
export type Deployment = Required<SeedDeployment>;
export type User = Required<Omit<SeedUser, 'deploymentIds'>> & Pick<SeedUser, 'deploymentIds'>;
export type Folder = Required<SeedFolder>;
export type WorkbookRec = Required<Omit<SeedWorkbook, 'dashboardDraft'>> & Pick<SeedWorkbook, 'dashboardDraft'>;
export type ReportRec = Required<SeedReport>;
export type UserAttributeRec = Required<SeedUserAttribute>;

/** The data model the emulator serves (routes-data-model.ts). */
export interface DataModelState {
  /** The whole model, hidden members included; null: the deployments have no data model (no `rest` credentials). */
  model: CubeModel | null;
  /** `/v1/meta` answers as in dev mode: hidden members listed with `isVisible: false`. */
  devMode: boolean;
  /** Deployment tokens are HS256 JWTs signed with this (a local Cube started with it takes them). */
  secret?: string;
  /** What the environments list gives as the `rest` url (this server's Core Data API unless set). */
  restUrl: string;
}
