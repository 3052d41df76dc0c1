// The unit tier in one process (npm run test:unit, npm test): its files share no state, and a process of their own cost each one more CPU than its tests.
import { readdirSync } from 'node:fs';

const here = new URL('./', import.meta.url);
const files = readdirSync(here).filter((name) => name.endsWith('.test.ts'));
for (const file of files.sort()) await import(new URL(file, here).href);
