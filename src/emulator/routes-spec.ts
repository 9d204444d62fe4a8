// GET /api/v1/spec: a live tenant serves its own API description there. The
// emulator serves a stub that names the version of the API it emulates (the
// last changelog entry the facts describe), which `wsc doctor` reports.
import type { Ctx } from './context.js';

export const EMULATED_API_VERSION = '0.19.1';

export function getSpec(_ctx: Ctx): unknown {
  return {
    openapi: '3.1.0',
    info: { title: 'Workspace Content API (wsc emulator)', version: EMULATED_API_VERSION },
    paths: {},
  };
}
