// What doctor's checks get (DoctorContext) over a connection: the reads they
// share made once each (the first list request, the tenant's API
// description, the plan of the bundle), and `--deep`'s export in memory when
// asked. The command gives the connection, the bundle and how it plans.
import type { Connection } from '../api/connect.js';
import { exportSourceOf } from '../api/export-source.js';
import type { ResolvedEnvironment } from '../config/types.js';
import type { UnreadableItem } from '../core/model.js';
import type { Plan } from '../core/plan-model.js';
import { probeOf } from './checks.js';
import { deepRoundTrip } from './deep.js';
import { readTenantSpec } from './tenant-spec.js';
import type { DoctorCommands, DoctorContext } from './types.js';

export function doctorContext(
  conn: Connection,
  env: ResolvedEnvironment,
  bundle: DoctorContext['bundle'],
  o: { plan: () => Promise<Plan>; deep: boolean; commands: DoctorCommands },
): DoctorContext {
  const { client, deploymentId } = conn;
  let planned: Promise<Plan> | undefined;
  let spec: ReturnType<typeof readTenantSpec> | undefined;
  const deep = () => {
    const unreadable: UnreadableItem[] = [];
    const source = exportSourceOf(client, deploymentId, unreadable);
    return deepRoundTrip({ client, deploymentId, env, source, unreadable });
  };
  return {
    env,
    client,
    deploymentId,
    bundle,
    commands: o.commands,
    probe: probeOf(client, deploymentId),
    spec: () => (spec ??= readTenantSpec(client)),
    plan: () => (planned ??= o.plan()),
    ...(o.deep ? { deep } : {}),
  };
}
