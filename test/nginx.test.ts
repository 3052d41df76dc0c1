// The shared HTTP contract suite, unchanged, against the real nginx serving a built dist/ with the generated configuration.
import { nginxOverFreshBuild } from '../src/engines/nginx-run.ts';
import { defineHttpSuite } from './support/http-suite.ts';

// A missing nginx makes start() throw with the install command: the suite fails, it is never skipped.
defineHttpSuite('nginx over dist/', () => nginxOverFreshBuild(new URL('../fixtures/', import.meta.url).pathname));
