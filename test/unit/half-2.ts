// The second half of the unit tier in one process (npm test, npm run test:unit): tier.ts says how the tier is split.
import { importShare } from './tier.ts';

await importShare(1, 2);
