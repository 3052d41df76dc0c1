// Lint rules: the recommended sets for JS and TypeScript, nothing stylistic.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'lib/', '.dist-*/', 'artifacts/', 'client/lib/', 'client/src/generated/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }] },
  },
  {
    // A failing assert.ok(value) without a message makes node read the test's source to print the expression; under
    // tsx one such read had not ended after 60 s, where the test should have failed (docs/testing.md, "Writing a test": a failure fails, it never hangs).
    files: ['test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[arguments.length=1][callee.object.name='assert'][callee.property.name='ok']",
          message: 'Give assert.ok a message: without one, a failure makes node parse the source, which can hang under tsx.',
        },
        {
          selector: "CallExpression[arguments.length=1][callee.name='assert']",
          message: 'Give assert a message: without one, a failure makes node parse the source, which can hang under tsx.',
        },
      ],
    },
  },
);
