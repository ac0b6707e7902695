import { solveBotChallenge, type BotChallenge } from './bot-check.solver';

/**
 * Solves one bot-check challenge off the main thread, so the page stays responsive while the
 * proof of work runs (RULINGS 16). Receives the challenge, answers the solution or null.
 */
self.addEventListener('message', (event: MessageEvent<BotChallenge>) => {
  solveBotChallenge(event.data).then(
    (solution) => self.postMessage(solution),
    () => self.postMessage(null),
  );
});
