// Starts a storefront binary on 127.0.0.1 with a kernel-chosen port and stops it again; shared by the
// browser and validation tests under tests/browser.
import { spawn } from 'node:child_process';

// Resolves to { url, stop } once the server logs the port it listens on; rejects after `timeoutMs`.
export function startServer(binary, extraArgs = [], timeoutMs = 20000) {
  const child = spawn(binary, ['--address', '127.0.0.1', '--port', '0', '--threads', '1',
    '--generated-locations', '1000', '--access-log', 'false', ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const stop = () => new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) { resolve(); return; }
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
  process.once('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error('server did not start: ' + log)); }, timeoutMs);
    const onData = (chunk) => {
      log += chunk;
      const m = /"event":"listening".*?"port":(\d+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${m[1]}`, stop, log: () => log });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited (${code}): ${log}`)); });
  });
}
