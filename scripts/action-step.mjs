// Print the `run:` script of the step named argv[3] in the action argv[2],
// so that scripts/check-action.sh can run the action's own script.
//   NODE_TOOLS=path/to/node_modules node scripts/action-step.mjs action.yml "Run retrylint"
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const require = createRequire(join(process.env.NODE_TOOLS ?? ".", "noop.js"));
const YAML = require("yaml");
const [file, name] = process.argv.slice(2);
const action = YAML.parse(readFileSync(file, "utf8"));
const step = (action?.runs?.steps ?? []).find((s) => s.name === name);
if (!step || typeof step.run !== "string") {
  console.error(`action-step: no step named \`${name}\` with a run script in ${file}`);
  process.exit(2);
}
process.stdout.write(step.run);
