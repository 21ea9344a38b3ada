/**
 * Option tables of the file-reading and text commands on the read-only list
 * (GNU coreutils, grep, diffutils, findutils' find is in specs-find.ts).
 * Taken from the commands' own option tables (`--help` of coreutils 9.1,
 * grep 3.8, diffutils 3.8, file 5.44, util-linux column/hexdump, jq 1.6):
 * every option listed must exist, because long options are resolved by
 * prefix against this table (option-parse.ts). An option not listed is
 * unknown and makes the command not read-only.
 *
 * Effects: `read` = the value is a file the command reads (judged by the
 * path guard), `write` = a file it writes, `unsafe` = runs a program or reads
 * files that cannot be named before it runs.
 */
import { optionTable, type OptionTable } from './option-parse.js';

const FILES_FROM = ['unsafe', 'reads file names from a list, which cannot be checked before it runs'] as const;
const CHECK_LIST = ['unsafe', 'reads the files named inside the check list, which cannot be checked before it runs'] as const;

const SUMS_LONG = 'binary check tag text zero ignore-missing quiet status strict warn help version';
const sums = (extraShort = '', extraLong = ''): OptionTable =>
  optionTable(`bctzw${extraShort}`, `${SUMS_LONG} ${extraLong}`, { effects: { '-c': CHECK_LIST, '--check': CHECK_LIST } });

export const FILE_TABLES: Readonly<Record<string, OptionTable>> = {
  ls: optionTable('abcdfghiklmnopqrstuvw:xABCDFGHI:LNQRST:UXZ1', 'all almost-all author escape block-size= ignore-backups color? directory dired classify? file-type format= full-time group-directories-first no-group human-readable si dereference-command-line dereference-command-line-symlink-to-dir hide= hyperlink? indicator-style= inode ignore= kibibytes dereference numeric-uid-gid literal hide-control-chars show-control-chars quote-name quoting-style= reverse recursive size sort= time= time-style= tabsize= width= context zero help version'),
  cat: optionTable('AbeEnstTuv', 'show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting help version'),
  head: optionTable('c:n:qvz', 'bytes= lines= quiet silent verbose zero-terminated help version', { digits: true }),
  tail: optionTable('c:n:fFqs:vz', 'bytes= follow? lines= max-unchanged-stats= pid= quiet silent retry sleep-interval= verbose zero-terminated help version', {
    digits: true,
    effects: { '-f': ['unsafe', 'follows the file forever'], '-F': ['unsafe', 'follows the file forever'], '--follow': ['unsafe', 'follows the file forever'] },
  }),
  wc: optionTable('cmlLw', 'bytes chars lines files0-from= max-line-length words total= help version', { effects: { '--files0-from': FILES_FROM } }),
  tac: optionTable('brs:', 'before regex separator= help version'),
  nl: optionTable('b:d:f:h:i:l:n:ps:v:w:', 'body-numbering= section-delimiter= footer-numbering= header-numbering= line-increment= join-blank-lines= number-format= no-renumber number-separator= starting-line-number= number-width= help version'),
  rev: optionTable('hV', 'help version'),
  fold: optionTable('bsw:', 'bytes spaces width= help version', { digits: true }),
  fmt: optionTable('cp:stuw:g:', 'crown-margin prefix= split-only tagged-paragraph uniform-spacing width= goal= help version', { digits: true }),
  paste: optionTable('d:sz', 'delimiters= serial zero-terminated help version'),
  comm: optionTable('123z', 'check-order nocheck-order output-delimiter= total zero-terminated help version'),
  join: optionTable('a:e:ij:o:t:v:1:2:z', 'ignore-case check-order nocheck-order header zero-terminated help version'),
  expand: optionTable('it:', 'initial tabs= help version', { digits: true }),
  unexpand: optionTable('at:', 'all first-only tabs= help version', { digits: true }),
  column: optionTable('tn:O:N:l:E:deH:R:T:W:LJr:i:p:c:o:s:xhV', 'table table-name= table-order= table-columns= table-columns-limit= table-noextreme= table-noheadings table-header-repeat table-hide= table-right= table-truncate= table-wrap= keep-empty-lines json tree= tree-id= tree-parent= output-width= output-separator= separator= fillrows help version'),
  od: optionTable('A:aBbcDdeFfHhIij:LlN:OoS:st:vw::Xx', 'address-radix= endian= skip-bytes= read-bytes= strings? format= output-duplicates width? traditional help version'),
  hexdump: optionTable('bcCdoxL::e:f:n:s:vhV', 'one-byte-octal one-byte-char canonical two-bytes-decimal two-bytes-octal two-bytes-hex color? format= format-file= length= skip= no-squeezing help version', {
    effects: { '-f': 'read', '--format-file': 'read' },
  }),
  stat: optionTable('Lfc:t', 'dereference file-system cached= format= printf= terse help version'),
  file: optionTable('bcC:de:E:f:F:hiklLm:nNpP:rsSvzZ0', 'help version magic-file= uncompress uncompress-noreport brief checking-printout exclude= exclude-quiet= files-from= separator= mime apple extension mime-type mime-encoding keep-going list dereference no-dereference no-buffer no-pad print0 preserve-date parameter= raw special-files no-sandbox compile debug', {
    effects: {
      '-C': ['write', 'compiles a magic file (writes it)'], '--compile': ['write', 'compiles a magic file (writes it)'],
      '-m': 'read', '--magic-file': 'read', '-f': FILES_FROM, '--files-from': FILES_FROM,
      '-S': ['unsafe', 'turns off its system-call sandbox'], '--no-sandbox': ['unsafe', 'turns off its system-call sandbox'],
    },
  }),
  du: optionTable('0aB:bcDd:HhkLlmPSst:X:x', 'null all apparent-size block-size= bytes total dereference-args max-depth= summarize files0-from= human-readable inodes dereference count-links no-dereference separate-dirs si threshold= time? time-style= exclude-from= exclude= one-file-system help version', {
    effects: { '-X': 'read', '--exclude-from': 'read', '--files0-from': FILES_FROM },
  }),
  df: optionTable('aB:hHiklPt:Tx:v', 'all block-size= human-readable si inodes local no-sync output? portability sync total type= print-type exclude-type= help version'),
  realpath: optionTable('emLPqsz', 'canonicalize-existing canonicalize-missing logical physical quiet relative-to= relative-base= strip no-symlinks zero help version', {
    effects: { '--relative-to': 'read', '--relative-base': 'read' },
  }),
  readlink: optionTable('femnqsvz', 'canonicalize canonicalize-existing canonicalize-missing no-newline quiet silent verbose zero help version'),
  md5sum: sums(), sha1sum: sums(), sha224sum: sums(), sha256sum: sums(), sha384sum: sums(), sha512sum: sums(),
  b2sum: sums('l:', 'length='),
  cksum: optionTable('a:cl:zw', 'algorithm= check length= tag untagged zero ignore-missing quiet status strict warn debug base64 raw help version', { effects: { '-c': CHECK_LIST, '--check': CHECK_LIST } }),
  diff: optionTable('0123456789abBcC:dD:eEfF:hHiI:lnNpPqrsS:tTuU:vwW:x:X:yZ', 'normal brief report-identical-files context? unified? ed rcs side-by-side width= left-column suppress-common-lines show-c-function show-function-line= label= expand-tabs initial-tab tabsize= suppress-blank-empty paginate recursive no-dereference new-file unidirectional-new-file ignore-file-name-case no-ignore-file-name-case exclude= exclude-from= starting-file= from-file= to-file= ignore-case ignore-tab-expansion ignore-trailing-space ignore-space-change ignore-all-space ignore-blank-lines ignore-matching-lines= text strip-trailing-cr ifdef= old-group-format= new-group-format= unchanged-group-format= changed-group-format= line-format= old-line-format= new-line-format= unchanged-line-format= minimal horizon-lines= speed-large-files color? palette= help version', {
    effects: { '-X': 'read', '--exclude-from': 'read', '--from-file': 'read', '--to-file': 'read' },
  }),
  cmp: optionTable('bi:ln:sv', 'print-bytes ignore-initial= verbose bytes= quiet silent help version'),
  sort: optionTable('bcCdfghik:mMno:rRsS:t:T:uVz', 'ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting month-sort human-numeric-sort numeric-sort random-sort random-source= reverse sort= version-sort batch-size= check? compress-program= debug files0-from= key= merge output= stable buffer-size= field-separator= temporary-directory= parallel= unique zero-terminated help version', {
    effects: {
      '-o': 'write', '--output': 'write', '-T': ['write', 'writes temporary files into that directory'], '--temporary-directory': ['write', 'writes temporary files into that directory'],
      '--compress-program': ['unsafe', 'runs a program'], '--random-source': 'read', '--files0-from': FILES_FROM,
    },
  }),
  uniq: optionTable('0123456789cdDf:is:uzw:', 'count repeated all-repeated? skip-fields= group? ignore-case skip-chars= unique zero-terminated check-chars= help version'),
  cut: optionTable('b:c:d:f:nsz', 'bytes= characters= delimiter= fields= complement only-delimited output-delimiter= zero-terminated help version'),
  tr: optionTable('cCdst', 'complement delete squeeze-repeats truncate-set1 help version'),
  grep: optionTable('0123456789A:B:C:D:EFGHIPTUVX:abcd:e:f:hiLlm:noqRrsuvwxyZz', 'extended-regexp fixed-strings basic-regexp perl-regexp regexp= file= ignore-case no-ignore-case word-regexp line-regexp null-data no-messages invert-match version help max-count= byte-offset line-number no-line-number line-buffered with-filename no-filename label= only-matching quiet silent binary-files= text directories= devices= recursive dereference-recursive include= exclude= exclude-from= exclude-dir= files-without-match files-with-matches count initial-tab null before-context= after-context= context= group-separator= no-group-separator color? colour? binary', {
    effects: { '-f': 'read', '--file': 'read', '--exclude-from': 'read' },
  }),
  // ripgrep 14 (its own parser: no abbreviations, so prefixes resolving here only fail closed). Its config file comes from RIPGREP_CONFIG_PATH (a dangerous variable).
  rg: optionTable('e:f:iSsvwxFnNHIlcoqr:g:t:T:uLA:B:C:m:j:M:aUPz0hVE:pb', 'regexp= file= after-context= before-context= context= binary block-buffered byte-offset case-sensitive color= colors= column context-separator= count count-matches crlf debug dfa-size-limit= encoding= engine= field-context-separator= field-match-separator= files files-with-matches files-without-match fixed-strings follow glob= glob-case-insensitive heading no-heading help hidden no-hidden hostname-bin= hyperlink-format= iglob= ignore-case ignore-file= ignore-file-case-insensitive include-zero invert-match json line-buffered line-number line-regexp max-columns= max-columns-preview max-count= max-depth= max-filesize= mmap multiline multiline-dotall no-config no-filename no-ignore no-ignore-dot no-ignore-exclude no-ignore-files no-ignore-global no-ignore-messages no-ignore-parent no-ignore-vcs no-line-number no-messages no-mmap no-require-git no-unicode null null-data one-file-system only-matching passthru path-separator= pcre2 pre= pre-glob= pretty quiet regex-size-limit= replace= search-zip smart-case sort= sortr= stats stop-on-nonmatch text threads= trim type= type-add= type-clear= type-list type-not= unrestricted version vimgrep with-filename word-regexp', {
    effects: {
      '-f': 'read', '--file': 'read', '--ignore-file': 'read',
      '--pre': ['unsafe', 'runs a preprocessor program on every file'], '--hostname-bin': ['unsafe', 'runs a program'],
    },
  }),
  jq: optionTable('nrjascCMSef:L:hV', 'null-input raw-input raw-output join-output ascii-output slurp compact-output color-output monochrome-output sort-keys exit-status from-file= tab indent= seq stream stream-errors unbuffered arg argjson slurpfile rawfile args jsonargs run-tests? help version', {
    effects: {
      '-f': 'read', '--from-file': 'read', '-L': ['unsafe', 'loads jq modules from a directory'],
      '--run-tests': ['unsafe', 'runs tests from a file'],
    },
  }),
};
