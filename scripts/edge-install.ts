// `npm run edge:install`: installs Cloudflare's local runtime into edge/ (npm ci with its own lock) when it is missing or not the locked version.
import { installEdgeTools } from './edge-run.ts';

installEdgeTools();
