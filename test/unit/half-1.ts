// The first half of the unit tier in one process (npm run test:unit runs both halves at once): tier.ts says how it is split.
import { importShare } from './tier.ts';

await importShare(0, 2);
