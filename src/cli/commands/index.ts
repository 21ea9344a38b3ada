/** The command list; a new command adds one line here. */
import type { Command } from 'commander';
import type { CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';
import { registerMockServer } from './mock-server.js';
import { registerRun } from './run.js';
import { registerSchema } from './schema.js';
import { registerValidate } from './validate.js';
import { registerReport } from './report.js';
import { registerQuery } from './query.js';
import { registerDiff } from './diff.js';
import { registerCompact } from './compact.js';
import { registerLintTools } from './lint-tools.js';
import { registerImport } from './import.js';
import { registerExport } from './export.js';
import { registerLab } from './lab.js';
import { registerVerifyDefense } from './verify-defense.js';

export type RegisterCommand = (program: Command, io: CliIo, result: CommandResult) => void;

export const COMMANDS: RegisterCommand[] = [registerRun, registerValidate, registerSchema, registerMockServer, registerLab, registerReport, registerQuery, registerDiff, registerCompact, registerLintTools, registerImport, registerExport, registerVerifyDefense];
