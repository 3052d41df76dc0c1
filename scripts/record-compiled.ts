// The last step of `npm run compile` (and of the type check, which compiles lib/ too): records in lib/ the fingerprint of the src/ it was compiled from, which `build`, `archive` and `serve` compare with the src/ there (src/commands/compiled.ts).
import { fileURLToPath } from 'node:url';
import { recordCompiled } from '../src/commands/compiled.ts';

recordCompiled(fileURLToPath(new URL('..', import.meta.url)));
