// The Action's `args` input as a shell splits it (action.yml, step "Run droidcheck"): words,
// 'single' and "double" quotes, backslash escapes, by shell-quote, a well-kept parser. Nothing
// is run or expanded: `$VAR` and `$(...)` stay text, as every input of the Action stays a value.
// Prints the arguments NUL-terminated on stdout (bash: mapfile -d ''); exit 2 with one line on
// stderr for what a shell would not take as arguments: an unclosed quote, an operator (|, ;, >,
// &&...), a comment.
import shellQuote from 'shell-quote';

const input = process.env.INPUT_ARGS ?? '';

/** Whether a quote is left open: shell-quote closes it silently, a shell refuses it. */
function unclosedQuote(text) {
  let quote;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (c === '\\') i += 1;
    else if (quote === '"') {
      if (c === '"') quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
  }
  return quote;
}

const fail = (why) => {
  process.stderr.write(`args: ${why}\n`);
  process.exit(2);
};

const open = unclosedQuote(input);
if (open) fail(`a ${open === '"' ? 'double' : 'single'} quote is not closed`);
// A variable stays as written: the Action passes values, it runs no shell over them.
const words = shellQuote.parse(input, (name) => `$${name}`);
const args = [];
for (const w of words) {
  if (typeof w === 'string') args.push(w);
  // A pattern is a value too: droidcheck's (--grep), not the shell's to expand.
  else if ('op' in w && w.op === 'glob') args.push(w.pattern);
  else if ('op' in w) fail(`"${w.op}" is shell syntax, not an argument: quote it`);
  else if ('comment' in w) fail('"#" starts a comment in a shell: quote it');
}
process.stdout.write(args.map((a) => `${a}\0`).join(''));
