// Mutants that cannot change what a machine does, named with the reason (issue 35 item 4: "name
// why a mutant is equivalent"). Stryker reports them as Ignored, with that reason, and they are
// left out of the score; tests/mutation/report.ts counts them per reason. A one-off equivalent
// is named where it is, with a `// Stryker disable next-line <mutator>: <why>` comment.
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

/** The key of an object property node, for `name: …` and `'name': …`. */
function keyOf(node) {
  if (node.type !== 'ObjectProperty') return null;
  if (node.key.type === 'Identifier') return node.key.name;
  if (node.key.type === 'StringLiteral') return node.key.value;
  return null;
}

/** Whether the path is inside the arguments of a call to xstate's `setup(…)`. */
function inSetupCall(path) {
  const call = path.findParent((parent) => parent.isCallExpression());
  return call?.node.callee.type === 'Identifier' && call.node.callee.name === 'setup';
}

/** Whether the path is inside the `guards` of a call to xstate's `setup(…)`. */
function inSetupGuards(path) {
  const guards = path.findParent((parent) => parent.isObjectProperty() && keyOf(parent.node) === 'guards');
  return guards !== null && inSetupCall(guards);
}

/** `event.type === '…'`. */
function isEventTypeCheck(node) {
  return (
    node.type === 'BinaryExpression' &&
    node.operator === '===' &&
    node.left.type === 'MemberExpression' &&
    node.left.object.type === 'Identifier' &&
    node.left.object.name === 'event' &&
    node.left.property.type === 'Identifier' &&
    node.left.property.name === 'type' &&
    node.right.type === 'StringLiteral'
  );
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'machine-equivalents', {
    shouldIgnore(path) {
      const key = keyOf(path.node);
      if (key === 'description') return "a state's description documents it for people; nothing the machine runs reads it";
      if (key === 'types' && inSetupCall(path)) return "setup's types declare TypeScript types only: at runtime the object is empty";
      if (path.isStringLiteral() && path.parentPath.isCallExpression() && path.parentPath.node.callee.type === 'Identifier' && path.parentPath.node.callee.name === 'notProvided') {
        return "the names given to a call's placeholder only word its error, for a developer (machines/not-provided.test.ts checks the wording)";
      }
      // The journey's guards that read an event's fields (isCurrentPath, canVisitPath, canJumpBack,
      // isStage) open with this check so TypeScript narrows the event; each is named only by
      // transitions of that one event. The check's own mutants go with it: set to true (the
      // equivalent one), set to false, `!==` and "" (each refuses every such transition, and the
      // guard's other conditions keep their mutants).
      if (isEventTypeCheck(path.node) && path.parentPath.isLogicalExpression({ operator: '&&' }) && path.parentPath.node.left === path.node && inSetupGuards(path)) {
        return "a guard's check of the event's type, where only transitions of that event name the guard: it narrows the event's TypeScript type";
      }
      if (path.isObjectExpression() && path.node.properties.length > 0 && path.node.properties.every((property) => keyOf(property) === 'description')) {
        return 'a state whose config is only its description: emptied, it is the same state';
      }
      return undefined;
    },
  }),
];
