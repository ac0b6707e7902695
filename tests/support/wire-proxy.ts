import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP proxy between the app and its PostgreSQL server (a real one, or PGlite's wire server):
 * the network and the database's own shutdown, at the edge of the world, on demand. It passes
 * bytes both ways until told to hold the database's answers once the app has sent a given
 * statement (a request caught inside its transaction), then to do to every session what
 * `pg_ctl stop -m fast` does (FATAL 57P01, then the socket closed) or what an immediate stop or a
 * failover does (the socket reset), and to refuse new connections until it is up again.
 */

interface Session {
  app: Socket;
  db: Socket;
  /** The database's bytes held back from the app. */
  held: Buffer[];
}

/** A PostgreSQL ErrorResponse message, as the server writes it when it ends a session. */
export function errorResponse(fields: { severity: string; code: string; message: string }): Buffer {
  const parts = [`S${fields.severity}`, `V${fields.severity}`, `C${fields.code}`, `M${fields.message}`].map((field) => Buffer.from(`${field}\0`, 'utf8'));
  const body = Buffer.concat([...parts, Buffer.from([0])]);
  const head = Buffer.alloc(5);
  head.write('E', 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

export class WireProxy {
  private readonly sessions = new Set<Session>();
  private server: Server | null = null;
  private holdAfter: RegExp | null = null;
  private holding = false;
  /** Everything the app sent since the last holdAfterStatement (latin1, for matching statement text). */
  private sent = '';

  private constructor(
    private readonly target: { host: string; port: number },
    readonly port: number,
  ) {}

  /** Listens on a free loopback port in front of `target`. */
  static async start(target: { host: string; port: number }): Promise<WireProxy> {
    const probe = new WireProxy(target, 0);
    const port = await probe.listen(0);
    const proxy = new WireProxy(target, port);
    await probe.close();
    await proxy.listen(port);
    return proxy;
  }

  private listen(port: number): Promise<number> {
    const server = createServer((app) => this.accept(app));
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  private accept(app: Socket) {
    const db = connect(this.target.port, this.target.host);
    const session: Session = { app, db, held: [] };
    this.sessions.add(session);
    const end = () => {
      // A session down() ends is ended its own way (its last bytes still on their way).
      if (!this.sessions.delete(session)) return;
      app.destroy();
      db.destroy();
    };
    app.on('error', end);
    db.on('error', end);
    app.on('close', end);
    db.on('close', end);
    app.on('data', (chunk: Buffer) => {
      if (this.holdAfter && !this.holding) {
        this.sent += chunk.toString('latin1');
        if (this.holdAfter.test(this.sent)) this.holding = true;
      }
      db.write(chunk);
    });
    db.on('data', (chunk: Buffer) => {
      if (this.holding) session.held.push(chunk);
      else app.write(chunk);
    });
  }

  /** From the moment the app sends a statement matching `pattern`, the database's answers are held back. */
  holdAfterStatement(pattern: RegExp) {
    this.holdAfter = pattern;
    this.holding = false;
    this.sent = '';
  }

  /** Stops holding: every session gets what was held back, in order, and answers pass again. */
  release() {
    this.holdAfter = null;
    this.holding = false;
    for (const session of this.sessions) {
      for (const chunk of session.held) session.app.write(chunk);
      session.held = [];
    }
  }

  /** Whether the statement was seen and answers are being held: the request is inside its transaction, waiting. */
  get isHolding(): boolean {
    return this.holding;
  }

  /** Connections open now. */
  get open(): number {
    return this.sessions.size;
  }

  /**
   * `pg_ctl stop -m fast`: every session gets FATAL 57P01 (what was held is dropped, never
   * delivered) and is closed, and new connections are refused until up().
   */
  adminShutdown(): Promise<void> {
    const fatal = errorResponse({ severity: 'FATAL', code: '57P01', message: 'terminating connection due to administrator command' });
    return this.down((session) => session.app.end(fatal));
  }

  /** An immediate stop or a failover: every session's socket reset, held answers dropped, new connections refused until up(). */
  reset(): Promise<void> {
    return this.down((session) => session.app.resetAndDestroy());
  }

  /** Stops listening (new connections are refused), stops holding, and ends every session as `end` says. */
  private async down(end: (session: Session) => void): Promise<void> {
    this.holdAfter = null;
    this.holding = false;
    // The listener closes once its sessions are gone, so they are ended before it is awaited.
    const closing = this.close();
    for (const session of [...this.sessions]) {
      this.sessions.delete(session);
      session.held = [];
      session.db.destroy();
      end(session);
    }
    await closing;
  }

  /** Accepts connections again on the same port (the database is back). */
  async up(): Promise<void> {
    await this.listen(this.port);
  }

  private close(): Promise<void> {
    const server = this.server;
    this.server = null;
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  /** Closes the proxy and every session through it. */
  async stop(): Promise<void> {
    const closing = this.close();
    for (const session of [...this.sessions]) {
      session.app.destroy();
      session.db.destroy();
    }
    await closing;
  }
}
