import os from 'node:os';
import { parseConfigOrExit, type Config } from './config';
import { OWNER_ONLY_UMASK } from './data-dir-modes';
import { embeddedDataDir, openConfiguredDatabase } from './db/client';
import { EmbeddedDatabaseLocked, holderText, lockEmbeddedDatabase, type LockHolder } from './db/embedded-lock';
import { backupThroughServer, brokerThroughServer } from './admin/admin-client';
import { adminFileOf, readAdminFile } from './admin/admin-file';
import { isFileCommand, parseBrokerArgs, POSTGRES_BACKUP_TEXT, runBrokerArgs, USAGE, type BrokerCommand, type FileCommand } from './admin/broker-commands';
import { DumpError, dumpEmbeddedDatabase, restoreEmbeddedDatabase, sizeText, writeFileAtomically } from './admin/embedded-backup';

/**
 * The broker's command line, over the database the server uses (same DATA_DIR / DATABASE_URL):
 *   npm run broker -- call-backs [--status S] [--json]   call-back tasks not closed (or of status S), newest first
 *   npm run broker -- call-backs set ID [--status S] [--assignee NAME] [--note TEXT]   works one
 *   npm run broker -- coupons [--json]        every coupon with its uses
 *   npm run broker -- coupons add --code CODE --type percent|fixed --value N
 *        [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--limit N] [--provider ID]
 *   npm run broker -- coupons disable CODE
 *   npm run broker -- orders [--status pending|paid|failed|void|refund|refunded] [--json]
 *        orders newest first: state, amount, coupon, policy number and whether it was mailed
 *   npm run broker -- refunds [--json]      every capture that buys nothing, to give back, and its refund
 *   npm run broker -- refunds pay REFERENCE [--fort-id F]   gives it back through the gateway (APS REFUND)
 *   npm run broker -- mail [--status pending|sent|failed] [--json]
 *        the outbox newest first (mail and the APS sandbox's feedback): kind, policy/order, to,
 *        status, attempts, last error (e.g. HTTP 500), created, sent
 *   npm run broker -- mail resend POLICY_NUMBER   queues the certificate mail again (a new message id)
 *   npm run broker -- policies cancel POLICY --reason R [--note TEXT]   cancels it, refunds less the fee
 *   npm run broker -- cancellation-requests [--status open|done|declined|all] [--json]   customers' requests to cancel
 *   npm run broker -- cancellation-requests decline ID   keeps the policy (cancelling it makes the request done)
 *   npm run broker -- audit [--json]         every change made with these commands: who, when, before, after
 *   npm run broker -- settings [--json]      VAT percent, stamp fee (cents), traveller limits
 *   npm run broker -- settings set KEY N     changes one; every instance serves it within a second
 *   npm run broker -- backup FILE | restore FILE  the embedded database as a .tar.gz (admin/embedded-backup.ts)
 * Embedded PGlite allows one process per data directory, and the kernel enforces it (the lock of
 * db/embedded-lock.ts): the CLI takes the directory's lock before it opens anything and holds it
 * for the whole command, a backup or a restore included. When a running server holds it, the
 * commands go through that server's admin endpoint (admin/admin.routes.ts), so the server runs
 * them over its own database and sees every change at once; when no endpoint answers, the CLI
 * refuses (exit 1) and says so, and never opens the directory. With DATABASE_URL, PostgreSQL
 * serves both at once: direct. The commands themselves are admin/broker-commands.ts, which the
 * admin endpoint runs too; this file only reads the arguments and the environment, and prints.
 */

const print = (run: { out: string; err: string }) => {
  if (run.out) console.log(run.out);
  if (run.err) console.error(run.err);
};

/** backup or restore on a data directory nobody holds. */
async function fileCommandDirect(config: Config, command: FileCommand): Promise<number> {
  const dir = embeddedDataDir(config);
  if (command.kind === 'restore') {
    try {
      const { previous } = await restoreEmbeddedDatabase(dir, command.file, Date.now());
      console.log(`Restored ${dir} from ${command.file}.${previous ? ` The data it replaced is kept in ${previous}: delete it once the restored data is right.` : ''}`);
      return 0;
    } catch (error) {
      if (!(error instanceof DumpError)) throw error;
      console.error(`${error.message} Nothing was changed.`);
      return 1;
    }
  }
  await writeFileAtomically(command.file, async () => {
    const database = await openConfiguredDatabase(config);
    try {
      return await dumpEmbeddedDatabase(database);
    } finally {
      await database.close();
    }
  });
  console.log(`Backed up ${dir} to ${command.file} (${sizeText(command.file)}).`);
  return 0;
}

/** The admin endpoint did not hand over a backup; the message says why. */
class EndpointRefusal extends Error {}

/**
 * A command while another process (`holder`, null when it has not said who it is yet) holds the
 * lock of the embedded database: run by that server through its admin endpoint (DATA_DIR/admin.json
 * naming the holder's pid), or refused when there is none or it does not answer (exit 1). A
 * restore is always refused: it replaces the directory the holder has open.
 */
async function throughServer(config: Config, holder: LockHolder | null, command: BrokerCommand, argv: readonly string[]): Promise<number> {
  const dir = embeddedDataDir(config);
  const who = holderText(holder);
  const capital = `${who[0]!.toUpperCase()}${who.slice(1)}`;
  if (command.kind === 'restore') {
    console.error(`${capital} holds the embedded database ${dir}: stop it, then restore (a restore replaces the directory it has open).`);
    return 1;
  }
  const entry = readAdminFile(config.dataDir);
  const refuse = (reason: string) => {
    console.error(`${capital} holds the embedded database ${dir}, and ${reason}: stop it and run this again, or use DATABASE_URL (PostgreSQL serves both at once).`);
    return 1;
  };
  if (!holder || !entry || entry.pid !== holder.pid) return refuse(`${adminFileOf(config.dataDir)} does not name it (it may still be starting, or it is not a server)`);
  const pid = holder.pid;
  if (command.kind === 'backup') {
    try {
      await writeFileAtomically(command.file, async () => {
        const answer = await backupThroughServer(entry);
        if (!answer.ok) throw new EndpointRefusal(answer.reason);
        return answer.value;
      });
    } catch (error) {
      if (!(error instanceof EndpointRefusal)) throw error;
      return refuse(`its admin endpoint ${error.message}`);
    }
    console.log(`Backed up ${dir} to ${command.file} (${sizeText(command.file)}), through the running server (pid ${pid}).`);
    return 0;
  }
  const answer = await brokerThroughServer(entry, argv, cliUser());
  if (!answer.ok) return refuse(`its admin endpoint ${answer.reason}`);
  print({ out: answer.value.stdout, err: answer.value.stderr });
  return answer.value.exit_code;
}

async function main(argv: string[]): Promise<number> {
  // What a backup, a restore or an admin file creates is the owner's alone, as the server's (data-dir-modes.ts).
  process.umask(OWNER_ONLY_UMASK);
  const command = parseBrokerArgs(argv);
  if (typeof command === 'string') {
    console.error(`${command}\n\n${USAGE}`);
    return 2;
  }
  const config = parseConfigOrExit(process.env);
  if (config.databaseUrl && isFileCommand(command)) {
    console.error(POSTGRES_BACKUP_TEXT);
    return 1;
  }
  if (!config.databaseUrl) {
    let lock;
    try {
      lock = lockEmbeddedDatabase(embeddedDataDir(config), 'broker CLI');
    } catch (error) {
      if (error instanceof EmbeddedDatabaseLocked) return throughServer(config, error.holder, command, argv);
      throw error;
    }
    try {
      return await (isFileCommand(command) ? fileCommandDirect(config, command) : runDirect(config, argv));
    } finally {
      lock.release();
    }
  }
  return runDirect(config, argv);
}

/** A command over a database this process opens: PostgreSQL, or the embedded one whose lock it holds. */
async function runDirect(config: Config, argv: readonly string[]): Promise<number> {
  const database = await openConfiguredDatabase(config);
  try {
    const run = await runBrokerArgs(database.db, argv, Date.now(), { actor: cliActor(), canSendRefunds: config.apsApiUrl !== null, publicUrl: config.publicUrl });
    print(run);
    return run.code;
  } finally {
    await database.close();
  }
}

/**
 * Runs the command line with these arguments and exits with its code: the broker's entry,
 * broker-main.ts, calls it (`npm run broker` runs that entry from the server bundle).
 */
/** The operating-system user running the CLI, as the admin endpoint takes it ([A-Za-z0-9._-], else "unknown"). */
function cliUser(): string {
  let name = '';
  try {
    name = os.userInfo().username;
  } catch {
    // No entry for this uid (a container's): unknown.
  }
  return /^[A-Za-z0-9._-]{1,64}$/.test(name) ? name : 'unknown';
}

/** Who a change made from this command line is written as: `cli:<user>`. */
const cliActor = () => `cli:${cliUser()}`;

export function runBrokerCli(argv: string[]): void {
  main(argv).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}
