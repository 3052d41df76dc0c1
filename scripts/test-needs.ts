// `npm run test:needs`, the first step of `npm test`: finds what the tests run (nginx, Chromium, Python, unzip, wrangler) and installs what is missing, or says in one line what to install.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { installEdgeTools } from './edge-run.ts';
import { brotliStaticModule, findNginx } from './nginx-run.ts';

/** A program the tests start, the Debian package that provides it, and how to tell it is there. */
export interface Need {
  what: string;
  debian: string;
  present: () => boolean;
}

const onPath = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const succeeds = (check: () => unknown): boolean => {
  try {
    check();
    return true;
  } catch {
    return false;
  }
};

export const NEEDS: readonly Need[] = [
  { what: 'nginx', debian: 'nginx-light', present: () => succeeds(findNginx) },
  { what: "nginx's brotli static module", debian: 'libnginx-mod-http-brotli-static', present: () => succeeds(() => brotliStaticModule(findNginx())) },
  { what: 'Chromium', debian: 'chromium', present: () => existsSync(process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium') },
  { what: 'Python 3', debian: 'python3', present: () => onPath('python3') },
  { what: 'Info-ZIP unzip', debian: 'unzip', present: () => onPath('unzip') },
];

/** Debian (or a derivative) with apt-get, as root: the one case where this script installs system packages itself. */
function canInstall(): boolean {
  const debian =
    existsSync('/etc/debian_version') || /^ID(_LIKE)?=.*debian/m.test(existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '');
  return debian && process.getuid?.() === 0 && onPath('apt-get');
}

/** What the tests need and this machine lacks. */
export const missingNeeds = (): Need[] => NEEDS.filter((n) => !n.present());

/** The one line printed when something is missing and cannot be installed here. */
export function installAdvice(missing: readonly Need[]): string {
  const what = missing.map((n) => n.what).join(', ');
  const packages = [...new Set(missing.map((n) => n.debian))].join(' ');
  return `npm test needs ${what}: on Debian or Ubuntu run \`apt-get install ${packages}\` as root (npm test does it when run as root); elsewhere install ${what} from your system's packages, and set NGINX or CHROMIUM_PATH if they are not at the usual paths.`;
}

function installSystemPackages(): void {
  let missing = missingNeeds();
  if (missing.length === 0) return;
  const packages = [...new Set(missing.map((n) => n.debian))];
  if (canInstall()) {
    console.error(`test:needs: installing ${packages.join(' ')} with apt-get`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
    const install = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: ['ignore', 'ignore', 'inherit'], env });
    missing = missingNeeds();
    if (update.status === 0 && install.status === 0 && missing.length === 0) return;
  }
  console.error(installAdvice(missing));
  process.exit(1);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  installSystemPackages();
  installEdgeTools();
}
