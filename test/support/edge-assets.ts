// The edge Worker's assets binding over the artifact's files, for the tests that run the Worker's code in process.
import { EDGE_ASSETS_DIR } from '../../src/artifact/edge.ts';
import type { EdgeEnv } from '../../src/runtimes/edge-worker.ts';

/**
 * The binding as the runtime serves it: the file at the URL's path in the artifact's assets folder, or 404. Each URL
 * asked for is pushed to `asked`.
 */
export function assetsOf(files: ReadonlyMap<string, Buffer>, asked: string[] = []): EdgeEnv {
  return {
    ASSETS: {
      fetch: (input: string) => {
        asked.push(input);
        const body = files.get(`${EDGE_ASSETS_DIR}${new URL(input).pathname}`);
        return Promise.resolve(body === undefined ? new Response(null, { status: 404 }) : new Response(new Uint8Array(body)));
      },
    },
  };
}
