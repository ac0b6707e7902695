import { runBrokerCli } from './broker-cli';

/**
 * `npm run broker`'s entry (broker-cli.ts), compiled into the server bundle as
 * dist-server/broker-main.js and run there with plain node, as `npm start` runs the server.
 */
runBrokerCli(process.argv.slice(2));
