// The unit tier in one process (npm test, npm run mutation's second stage): its files share no state, and a process of their own cost each one more CPU than its tests.
import { importShare } from '../support/tier.ts';

await importShare('unit', 0, 1);
