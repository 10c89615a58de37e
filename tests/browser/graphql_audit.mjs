// The GraphQL-over-HTTP audit suite of npm graphql-http 1.23 (serverAudits: 61 audits, 13 MUST, 23 SHOULD,
// 25 MAY) against storefront's /graphql: prints every audit with its result and, for a failure, the status,
// content type and body it got; exits non-zero unless all 61 pass. Fails (never skips) without node modules.
//
//   node tests/browser/graphql_audit.mjs PATH/TO/storefront
//   node tests/browser/graphql_audit.mjs tests/browser/lib/reference_graphql_server.mjs   (graphql-http's own)
import { startServer } from './lib/server.mjs';

const [binary] = process.argv.slice(2);
if (!binary) {
  console.error('usage: graphql_audit.mjs PATH/TO/storefront');
  process.exit(2);
}
let serverAudits;
try {
  ({ serverAudits } = await import('graphql-http'));
} catch (e) {
  console.error('FAIL: graphql-http missing: run npm ci in tests/browser (./deploy/quickstart.sh test does)');
  process.exit(1);
}

const expected = 61;
const server = await startServer(binary, ['--storage', 'memory']);
const url = `${server.url}/graphql`;
const levels = ['MUST', 'SHOULD', 'MAY'];
const counts = Object.fromEntries(levels.map((l) => [l, { passed: 0, total: 0 }]));
let failed = 0;
let audits = [];
try {
  audits = serverAudits({ url });
  console.log(`graphql-http serverAudits against ${url}: ${audits.length} audits`);
  for (const audit of audits) {
    const level = levels.find((l) => audit.name.startsWith(l)) || 'MAY';
    counts[level].total++;
    let result;
    try {
      result = await audit.fn();
    } catch (e) {
      // Anything but an assertion (a refused connection, a reset) is fatal to graphql-http: a failure here.
      result = { status: 'error', reason: 'fatal: ' + (e.cause?.message || e.message) };
    }
    if (result.status === 'ok') {
      counts[level].passed++;
      console.log(`  ok      ${audit.id} ${audit.name}`);
      continue;
    }
    failed++;
    let got = '';
    if (result.response) {
      const body = await result.response.text().catch(() => '(body already read)');
      got = ` | got ${result.response.status} ${result.response.headers.get('content-type') || '(no content-type)'}`
        + ` ${body.slice(0, 200).replace(/\s+/g, ' ')}`;
    }
    console.log(`  ${result.status.padEnd(7)} ${audit.id} ${audit.name}: ${result.reason}${got}`);
  }
} finally {
  await server.stop();
}

const summary = levels.map((l) => `${l} ${counts[l].passed}/${counts[l].total}`).join(', ');
const passed = levels.reduce((n, l) => n + counts[l].passed, 0);
console.log(`passed ${passed}/${audits.length} (${summary})`);
if (audits.length !== expected) {
  console.error(`FAIL: graphql-http returned ${audits.length} audits, expected ${expected} (another version?)`);
  process.exit(1);
}
if (failed > 0) {
  console.error(`FAIL: ${failed} audit(s) did not pass`);
  process.exit(1);
}
console.log(`ok: all ${expected} GraphQL-over-HTTP audits pass`);
