// GET /api/v1/spec: a live tenant serves its own API description there. The
// emulator serves a stub that names the version of the API it emulates (the
// last changelog entry wsc knows), which `wsc doctor` reports.
import { KNOWN_API_VERSION } from '../domain/wire.js';
import type { Ctx } from './context.js';

export function getSpec(_ctx: Ctx): unknown {
  return {
    openapi: '3.1.0',
    info: { title: 'Workspace Content API (wsc emulator)', version: KNOWN_API_VERSION },
    paths: {},
  };
}
