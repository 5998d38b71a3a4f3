// `node --import` this file: the module hooks of typescript-hooks.mjs for the process (the test workers' execArgv).
import { register } from 'node:module';

register('./typescript-hooks.mjs', import.meta.url);
