// Mutants that cannot change what a machine does, named with the reason (issue 35 item 4: "name
// why a mutant is equivalent"). Stryker reports them as Ignored, with that reason, and they are
// left out of the score; tests/mutation/report.ts counts them per reason.
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

/** The name of an object property's key, for `name: …` and `'name': …`. */
function keyName(path) {
  if (!path.isObjectProperty()) return null;
  const { key } = path.node;
  if (key.type === 'Identifier') return key.name;
  if (key.type === 'StringLiteral') return key.value;
  return null;
}

/** Whether the path is an argument of a call to `setup(…)` from xstate. */
function inSetupCall(path) {
  const call = path.findParent((parent) => parent.isCallExpression());
  return call?.node.callee.type === 'Identifier' && call.node.callee.name === 'setup';
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'machine-equivalents', {
    shouldIgnore(path) {
      const key = keyName(path);
      if (key === 'description') return "a state's description documents it for people; nothing the machine runs reads it";
      if (key === 'types' && inSetupCall(path.parentPath)) return "setup's types declare TypeScript types only: at runtime the object is empty";
      return undefined;
    },
  }),
];
