// Runs the shared HTTP contract suite (routes, the agreement table, the seeded fuzz) against the embedded server on a free loopback port.
import { startEmbedded } from '../support/embedded.ts';
import { defineHttpSuite } from '../support/http-suite.ts';

defineHttpSuite(
  'embedded server',
  async () => {
    const { running, baseUrl } = await startEmbedded();
    return { baseUrl, stop: () => running.close() };
  },
  { engine: 'embedded' },
);
