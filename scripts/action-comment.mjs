#!/usr/bin/env node
// The pull request comment of the wsc action (action.yml): the markdown plan
// (with its layout maps), then the pictures of the changed dashboards — shown
// inline when they were published on a branch (WSC_PICTURES_URL; the plan
// names them in any case), with a link to the artifact that holds them. One comment per pull request:
// found again by its first line and updated, never posted twice. Reads the
// GitHub API through GITHUB_API_URL with GITHUB_TOKEN; the pull request is the
// event's (GITHUB_EVENT_PATH). Exits 1 with the answer when GitHub refuses.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const MARKER = '<!-- wsc plan review -->';
/** GitHub refuses a comment over 65536 characters. */
const MAX_BODY = 65_000;

const env = (k) => process.env[k] ?? '';
const api = env('GITHUB_API_URL').replace(/\/+$/, '');
const repo = env('GITHUB_REPOSITORY');
const pr = JSON.parse(readFileSync(env('GITHUB_EVENT_PATH'), 'utf8')).pull_request?.number;
if (!api || !repo || !Number.isInteger(pr)) {
  process.stderr.write('wsc action: not a pull request event (GITHUB_EVENT_PATH has no pull_request.number)\n');
  process.exit(1);
}

function picturesSection() {
  const dir = env('WSC_PICTURES');
  const files = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.png'))
        .sort()
    : [];
  const against = env('WSC_AGAINST');
  if (files.length === 0) return `\n**Pictures**: no dashboard changed against \`${against}\`.\n`;
  let out = `\n**Pictures of the changed dashboards** (against \`${against}\`):\n\n`;
  const url = env('WSC_PICTURES_URL');
  if (url)
    for (const f of files) out += `<details open><summary>${f}</summary>\n\n![${f}](${url}/${f})\n\n</details>\n`;
  else out += `${files.map((f) => `- \`${f}\``).join('\n')}\n\n(PNG, and SVG beside.)\n`;
  const artifact = env('WSC_ARTIFACT_URL');
  if (artifact) out += `\nAll pictures, SVG and PNG: [the dashboard-pictures artifact](${artifact}).\n`;
  return out;
}

let plan = readFileSync(env('WSC_PLAN'), 'utf8');
const pictures = picturesSection();
const room = MAX_BODY - MARKER.length - pictures.length - 200;
if (plan.length > room)
  plan = `${plan.slice(0, room)}\n\n… (the plan is cut here: the whole plan is in the job summary)\n`;
const body = `${MARKER}\n${plan}\n${pictures}`;

async function github(method, path, payload) {
  const res = await fetch(`${api}${path}`, {
    method,
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${env('GITHUB_TOKEN')}`,
      'content-type': 'application/json',
      'x-github-api-version': '2022-11-28',
    },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
  });
  const text = await res.text();
  if (!res.ok) {
    process.stderr.write(`wsc action: ${method} ${path} answered ${res.status}: ${text.slice(0, 500)}\n`);
    process.exit(1);
  }
  return text === '' ? undefined : JSON.parse(text);
}

let existing;
for (let page = 1; page <= 20 && existing === undefined; page++) {
  const list = await github('GET', `/repos/${repo}/issues/${pr}/comments?per_page=100&page=${page}`);
  existing = list.find((c) => typeof c.body === 'string' && c.body.startsWith(MARKER));
  if (list.length < 100) break;
}
if (existing) {
  await github('PATCH', `/repos/${repo}/issues/comments/${existing.id}`, { body });
  process.stdout.write(`wsc action: updated comment ${existing.id} on pull request ${pr}\n`);
} else {
  const made = await github('POST', `/repos/${repo}/issues/${pr}/comments`, { body });
  process.stdout.write(`wsc action: posted comment ${made.id} on pull request ${pr}\n`);
}
