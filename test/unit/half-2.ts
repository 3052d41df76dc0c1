// The second half of the unit tier in one process (npm run test:unit runs both halves at once): test/support/tier.ts says how it is split.
import { importShare } from '../support/tier.ts';

await importShare('unit', 1, 2);
