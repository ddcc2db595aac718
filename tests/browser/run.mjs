// Serves page.html and MapLibre on a loopback port, opens it in headless Chromium (Debian's,
// driven by playwright-core) and checks that the /vt and /svt sources rendered features.
// Input (environment): TILES_API, TILES_LAYER, TILES_TENANT, TILES_TOKEN, TILES_TN,
// TILES_BBOX (w,s,e,n), TILES_SCREENSHOT (PNG path), CHROMIUM; NODE_PATH-free: run from
// the folder where `npm ci` put node_modules (TILES_MODULES).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const env = process.env;
const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(env.TILES_MODULES, 'package.json'));
const { chromium } = require('playwright-core');
const dist = join(dirname(require.resolve('maplibre-gl/package.json')), 'dist');

const files = {
  '/page.html': [join(here, 'page.html'), 'text/html; charset=utf-8'],
  '/maplibre-gl.js': [join(dist, 'maplibre-gl.js'), 'text/javascript'],
  '/maplibre-gl.css': [join(dist, 'maplibre-gl.css'), 'text/css'],
};
const server = createServer(async (req, res) => {
  const file = files[new URL(req.url, 'http://x').pathname];
  if (!file) { res.writeHead(req.url === '/favicon.ico' ? 204 : 404).end(); return; }
  res.writeHead(200, { 'Content-Type': file[1] }).end(await readFile(file[0]));
});
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));

// Chromium as this machine needs it: no sandbox as root, no GPU (WebGL by SwiftShader), and
// no background connections (the network is closed).
const browser = await chromium.launch({
  executablePath: env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
    '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update',
    '--disable-sync'],
});
let failed = true;
try {
  const page = await browser.newPage({ viewport: { width: 800, height: 600 } });
  page.on('console', (m) => { if (m.type() === 'error') console.error('página:', m.text()); });
  const q = new URLSearchParams({ api: env.TILES_API, camada: env.TILES_LAYER, tenant: env.TILES_TENANT,
    token: env.TILES_TOKEN, tn: env.TILES_TN, bbox: env.TILES_BBOX });
  await page.goto(`http://127.0.0.1:${server.address().port}/page.html?${q}`);
  await page.waitForFunction(() => window.tileResult, null, { timeout: 40000 });
  const result = await page.evaluate(() => window.tileResult);
  await page.screenshot({ path: env.TILES_SCREENSHOT });
  console.log(`feições desenhadas: /vt ${result.vt}, /svt ${result.svt} (zoom ${result.zoom.toFixed(1)}); ` +
    `captura em ${env.TILES_SCREENSHOT}`);
  if (result.errors.length) console.error('erros do mapa:', result.errors.join('; '));
  failed = !(result.vt > 0 && result.svt > 0 && result.errors.length === 0);
} finally {
  await browser.close();
  server.close();
}
if (failed) { console.error('FALHOU: o mapa não desenhou feições de /vt e de /svt'); process.exit(1); }
