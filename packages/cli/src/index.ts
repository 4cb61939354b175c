// The programmatic API of @toolscout/cli: run the command line in-process (tests, other tools).
export {
  type CliCommand,
  type CliIO,
  type CliOutput,
  cliVersion,
  EXIT_INPUT_ERROR,
  EXIT_OK,
  EXIT_USAGE_ERROR,
  HELP,
  InputFileError,
  parseCliArgs,
  runCli,
  type SearchCommand,
  UsageError,
} from './cli.js';
