// The second half of the integration tier in one process (npm test and npm run test:integration run both halves at once): test/support/tier.ts says how it is split.
import { importShare } from '../support/tier.ts';

await importShare('integration', 1, 2);
