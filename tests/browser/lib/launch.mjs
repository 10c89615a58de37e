// The start every headless-Chromium test under tests/browser shares: its arguments, Debian chromium and
// playwright-core (missing ones fail the test, never skip it), and the list of failed checks.
import { existsSync } from 'node:fs';

// Exits 2 with `usage` unless the first `required` arguments are given, exits 1 when chromium or
// playwright-core is missing. Resolves to { args, check, failures, openBrowser, startWatchdog, finish }:
// `check(ok, what)` records a failed check (and with `logPasses` prints the passed ones), `openBrowser()`
// starts headless Chromium, `startWatchdog(ms, cleanup)` fails the test after `ms` (running `cleanup` first;
// clearTimeout the timer it returns once done), `finish(summary)` exits 1 when a check failed and prints
// `summary` otherwise.
export async function launch(usage, { required = 1, logPasses = false } = {}) {
  const args = process.argv.slice(2);
  if (args.length < required || args.slice(0, required).some((arg) => !arg)) {
    console.error('usage: ' + usage);
    process.exit(2);
  }
  const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) {
    console.error(`FAIL: ${chromiumPath} missing (Debian package chromium; ./deploy/quickstart.sh test installs it)`);
    process.exit(1);
  }
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    console.error('FAIL: playwright-core missing: run npm ci in tests/browser (./deploy/quickstart.sh test does)');
    process.exit(1);
  }

  const failures = [];
  const check = (ok, what) => {
    if (!ok) {
      failures.push(what);
      console.error('FAIL: ' + what);
    } else if (logPasses) {
      console.log('ok: ' + what);
    }
  };
  const openBrowser = () => chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    timeout: 30000,
  });
  const startWatchdog = (ms, cleanup) => setTimeout(async () => {
    console.error('FAIL: timed out');
    await cleanup();
    process.exit(1);
  }, ms);
  const finish = (summary) => {
    if (failures.length) {
      console.error(`${failures.length} check(s) failed`);
      process.exit(1);
    }
    console.log(summary);
  };
  return { args, check, failures, openBrowser, startWatchdog, finish };
}
