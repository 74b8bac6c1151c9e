//! Which grammars of `syntaxes-onig-newlines.bin` highlighting each grammar can reach:
//! the grammars whose contexts parsing can enter from the grammar's start (its
//! includes, pushes, sets, `with_prototype`s and prototypes, followed through every
//! grammar). Written by `dump_tests.rs` (`the_reach_table_is_the_dumps`, run with
//! `OVERHEAR_WRITE_REACH=1` after copying new dumps), not by hand.

/// Each distinct reach: the indexes of its grammars in the dump, ascending.
pub(super) const REACHES: &[&[u16]] = &[
    // 0: Plain Text
    &[0],
    // 1: ASP, HTML (ASP), CSS, HTML, Regular Expressions (Javascript), GraphQL, JavaScript (Babel)
    &[1, 2, 10, 29, 38, 134, 140],
    // 2: ActionScript
    &[3],
    // 3: AppleScript
    &[4],
    // 4: Batch File
    &[5],
    // 5: NAnt Build File
    &[6],
    // 6: C#
    &[7],
    // 7: C++, C
    &[8, 9],
    // 8: C
    &[9],
    // 9: CSS
    &[10],
    // 10: Clojure, Regular Expression
    &[11, 71],
    // 11: D
    &[12],
    // 12: DMD Output
    &[13],
    // 13: Diff
    &[14],
    // 14: Erlang
    &[15],
    // 15: CSS, Erlang, HTML (Erlang), HTML, Regular Expressions (Javascript), GraphQL, JavaScript (Babel)
    &[10, 15, 16, 29, 38, 134, 140],
    // 16: Git Attributes, Git Common
    &[17, 19],
    // 17: Diff, Git Commit, Git Common
    &[14, 18, 19],
    // 18: Git Common
    &[19],
    // 19: Git Common, Git Config, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash
    &[19, 20, 78, 79, 80],
    // 20: Git Common, Git Ignore
    &[19, 21],
    // 21: Git Common, Git Link
    &[19, 22],
    // 22: Diff, Git Commit, Git Common, Git Log
    &[14, 18, 19, 23],
    // 23: Git Common, Git Mailmap
    &[19, 24],
    // 24: Git Common, Git Rebase Todo
    &[19, 25],
    // 25: Go
    &[26],
    // 26: CSS, Graphviz (DOT), HTML, Regular Expressions (Javascript), GraphQL, JavaScript (Babel)
    &[10, 27, 29, 38, 134, 140],
    // 27: CSS, Groovy, HTML, Javadoc, Regular Expressions (Javascript), GraphQL, JavaScript (Babel)
    &[10, 28, 29, 35, 38, 134, 140],
    // 28: CSS, HTML, Regular Expressions (Javascript), GraphQL, JavaScript (Babel)
    &[10, 29, 38, 134, 140],
    // 29: Haskell
    &[30],
    // 30: C++, C, CSS, Diff, Go, HTML, Haskell, Literate Haskell, JSON, Java, Javadoc, Regular Expressions (Javascript), LaTeX, TeX, Lisp, Lua, Objective-C++, Objective-C, PHP Source, Regular Expressions (PHP), Perl, Python, Regular Expressions (Python), R, Regular Expression, Ruby, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, XML, YAML, GraphQL, JavaScript (Babel)
    &[8, 9, 10, 14, 26, 29, 30, 31, 32, 34, 35, 38, 41, 42, 43, 44, 54, 55, 56, 58, 60, 61, 62, 64, 71, 73, 76, 78, 79, 80, 84, 85, 134, 140],
    // 31: JSON
    &[32],
    // 32: CSS, HTML, Java Server Page (JSP), Java, Javadoc, Regular Expressions (Javascript), GraphQL, JavaScript (Babel)
    &[10, 29, 33, 34, 35, 38, 134, 140],
    // 33: CSS, HTML, Java, Javadoc, Regular Expressions (Javascript), GraphQL, JavaScript (Babel)
    &[10, 29, 34, 35, 38, 134, 140],
    // 34: CSS, HTML, Javadoc, Regular Expressions (Javascript), GraphQL, JavaScript (Babel)
    &[10, 29, 35, 38, 134, 140],
    // 35: Java Properties
    &[36],
    // 36: JavaScript, Regular Expressions (Javascript)
    &[37, 38],
    // 37: Regular Expressions (Javascript)
    &[38],
    // 38: BibTeX
    &[39],
    // 39: LaTeX Log
    &[40],
    // 40: C++, C, CSS, Diff, Go, HTML, Haskell, JSON, Java, Javadoc, Regular Expressions (Javascript), LaTeX, TeX, Lisp, Lua, Objective-C++, Objective-C, PHP Source, Regular Expressions (PHP), Perl, Python, Regular Expressions (Python), R, Regular Expression, Ruby, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, XML, YAML, GraphQL, JavaScript (Babel)
    &[8, 9, 10, 14, 26, 29, 30, 32, 34, 35, 38, 41, 42, 43, 44, 54, 55, 56, 58, 60, 61, 62, 64, 71, 73, 76, 78, 79, 80, 84, 85, 134, 140],
    // 41: TeX
    &[42],
    // 42: Lisp
    &[43],
    // 43: Lua
    &[44],
    // 44: Make Output
    &[45],
    // 45: Makefile, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash
    &[46, 78, 79, 80],
    // 46: C#, C++, C, CSS, Go, Graphviz (DOT), HTML, JSON, Java, Javadoc, Regular Expressions (Javascript), Markdown, Objective-C++, Objective-C, PHP Source, PHP, Regular Expressions (PHP), Python, Regular Expressions (Python), R, Regular Expression, Ruby, Rust, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, XML, GraphQL, JavaScript (Babel), Puppet, TypeScript
    &[7, 8, 9, 10, 26, 27, 29, 32, 34, 35, 38, 47, 54, 55, 56, 57, 58, 61, 62, 64, 71, 73, 75, 76, 78, 79, 80, 84, 134, 140, 164, 192],
    // 47: C#, C++, C, CSS, Go, Graphviz (DOT), HTML, JSON, Java, Javadoc, Regular Expressions (Javascript), Markdown, MultiMarkdown, Objective-C++, Objective-C, PHP Source, PHP, Regular Expressions (PHP), Python, Regular Expressions (Python), R, Regular Expression, Ruby, Rust, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, XML, GraphQL, JavaScript (Babel), Puppet, TypeScript
    &[7, 8, 9, 10, 26, 27, 29, 32, 34, 35, 38, 47, 48, 54, 55, 56, 57, 58, 61, 62, 64, 71, 73, 75, 76, 78, 79, 80, 84, 134, 140, 164, 192],
    // 48: MATLAB
    &[49],
    // 49: OCaml, camlp4
    &[50, 53],
    // 50: OCaml, OCamllex, camlp4
    &[50, 51, 53],
    // 51: OCaml, OCamlyacc, camlp4
    &[50, 52, 53],
    // 52: C++, C, Objective-C++, Objective-C
    &[8, 9, 54, 55],
    // 53: C, Objective-C
    &[9, 55],
    // 54: CSS, HTML, JSON, Regular Expressions (Javascript), PHP Source, Regular Expressions (PHP), SQL, XML, GraphQL, JavaScript (Babel)
    &[10, 29, 32, 38, 56, 58, 76, 84, 134, 140],
    // 55: CSS, HTML, JSON, Regular Expressions (Javascript), PHP Source, PHP, Regular Expressions (PHP), SQL, XML, GraphQL, JavaScript (Babel)
    &[10, 29, 32, 38, 56, 57, 58, 76, 84, 134, 140],
    // 56: Regular Expressions (PHP)
    &[58],
    // 57: Pascal
    &[59],
    // 58: CSS, HTML, JSON, Regular Expressions (Javascript), Perl, Regular Expression, SQL, XML, GraphQL, JavaScript (Babel)
    &[10, 29, 32, 38, 60, 71, 76, 84, 134, 140],
    // 59: Python, Regular Expressions (Python), SQL
    &[61, 62, 76],
    // 60: Regular Expressions (Python)
    &[62],
    // 61: R Console, R
    &[63, 64],
    // 62: R
    &[64],
    // 63: C++, C, CSS, Diff, Go, HTML, Haskell, JSON, Java, Javadoc, Regular Expressions (Javascript), LaTeX, TeX, Lisp, Lua, Objective-C++, Objective-C, PHP Source, Regular Expressions (PHP), Perl, Python, Regular Expressions (Python), R, Rd (R Documentation), Regular Expression, Ruby, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, XML, YAML, GraphQL, JavaScript (Babel)
    &[8, 9, 10, 14, 26, 29, 30, 32, 34, 35, 38, 41, 42, 43, 44, 54, 55, 56, 58, 60, 61, 62, 64, 65, 71, 73, 76, 78, 79, 80, 84, 85, 134, 140],
    // 64: CSS, HTML, Regular Expressions (Javascript), HTML (Rails), Ruby on Rails, Ruby, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, GraphQL, JavaScript (Babel)
    &[10, 29, 38, 66, 69, 73, 76, 78, 79, 80, 134, 140],
    // 65: CSS, HTML, Regular Expressions (Javascript), JavaScript (Rails), Ruby on Rails, Ruby, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, GraphQL, JavaScript (Babel)
    &[10, 29, 38, 67, 69, 73, 76, 78, 79, 80, 134, 140],
    // 66: CSS, HTML, Regular Expressions (Javascript), Ruby Haml, Ruby on Rails, Ruby, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, GraphQL, JavaScript (Babel)
    &[10, 29, 38, 68, 69, 73, 76, 78, 79, 80, 134, 140],
    // 67: CSS, HTML, Regular Expressions (Javascript), Ruby on Rails, Ruby, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, GraphQL, JavaScript (Babel)
    &[10, 29, 38, 69, 73, 76, 78, 79, 80, 134, 140],
    // 68: CSS, HTML, Regular Expressions (Javascript), Ruby on Rails, SQL (Rails), Ruby, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, GraphQL, JavaScript (Babel)
    &[10, 29, 38, 69, 70, 73, 76, 78, 79, 80, 134, 140],
    // 69: Regular Expression
    &[71],
    // 70: CSS, HTML, Regular Expressions (Javascript), reStructuredText, GraphQL, JavaScript (Babel)
    &[10, 29, 38, 72, 134, 140],
    // 71: CSS, HTML, Regular Expressions (Javascript), Ruby, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, GraphQL, JavaScript (Babel)
    &[10, 29, 38, 73, 76, 78, 79, 80, 134, 140],
    // 72: Cargo Build Results
    &[74],
    // 73: Rust
    &[75],
    // 74: SQL
    &[76],
    // 75: Scala
    &[77],
    // 76: Bourne Again Shell (bash), commands-builtin-shell-bash
    &[78, 80],
    // 77: Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash
    &[78, 79, 80],
    // 78: CSS, HTML, Regular Expressions (Javascript), HTML (Tcl), Tcl, GraphQL, JavaScript (Babel)
    &[10, 29, 38, 81, 82, 134, 140],
    // 79: Tcl
    &[82],
    // 80: CSS, HTML, Regular Expressions (Javascript), Textile, GraphQL, JavaScript (Babel)
    &[10, 29, 38, 83, 134, 140],
    // 81: XML
    &[84],
    // 82: YAML
    &[85],
    // 83: Regular Expression, AWK
    &[71, 86],
    // 84: Ada
    &[87],
    // 85: Apache Conf
    &[88],
    // 86: XML, AsciiDoc (Asciidoctor)
    &[84, 89],
    // 87: ARM Assembly
    &[90],
    // 88: x86_64 Assembly
    &[91],
    // 89: CSS, HTML, Regular Expressions (Javascript), SQL, CFML, CFML Script (Tags), CFML Script, GraphQL, JavaScript (Babel)
    &[10, 29, 38, 76, 92, 93, 94, 134, 140],
    // 90: TestBox
    &[95],
    // 91: C, CMake C Header
    &[9, 96],
    // 92: C++, C, CMake C++ Header
    &[8, 9, 97],
    // 93: Regular Expression, CMake, CMakeCommands
    &[71, 98, 100],
    // 94: CMakeCache
    &[99],
    // 95: CMake, CMakeCommands
    &[98, 100],
    // 96: Comma Separated Values, Separated Values
    &[101, 104],
    // 97: Pipe Separated Values, Separated Values
    &[102, 104],
    // 98: Semi-Colon Separated Values, Separated Values
    &[103, 104],
    // 99: Comma Separated Values, Pipe Separated Values, Semi-Colon Separated Values, Separated Values, Tab Separated Values
    &[101, 102, 103, 104, 105],
    // 100: Separated Values, Tab Separated Values
    &[104, 105],
    // 101: Cabal
    &[106],
    // 102: CoffeeScript
    &[107],
    // 103: CpuInfo
    &[108],
    // 104: Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, Crontab
    &[78, 79, 80, 109],
    // 105: C++, C, CSS, HTML, Regular Expressions (Javascript), SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, Crystal, GraphQL, JavaScript (Babel)
    &[8, 9, 10, 29, 38, 76, 78, 79, 80, 110, 134, 140],
    // 106: Dart
    &[111],
    // 107: JSON, Bourne Again Shell (bash), commands-builtin-shell-bash, Dockerfile (with bash)
    &[32, 78, 80, 112],
    // 108: Dockerfile
    &[113],
    // 109: DotENV
    &[114],
    // 110: Elixir, Regular Expressions (Elixir)
    &[115, 117],
    // 111: CSS, HTML, Regular Expressions (Javascript), Elixir, HTML (EEx), Regular Expressions (Elixir), GraphQL, JavaScript (Babel)
    &[10, 29, 38, 115, 116, 117, 134, 140],
    // 112: Regular Expressions (Elixir)
    &[117],
    // 113: Elm Compile Messages, Elm, GLSL
    &[118, 120, 131],
    // 114: Elm Documentation, Elm, GLSL
    &[119, 120, 131],
    // 115: Elm, GLSL
    &[120, 131],
    // 116: CSS, HTML, Regular Expressions (Javascript), XML, Email, GraphQL, JavaScript (Babel)
    &[10, 29, 38, 84, 121, 134, 140],
    // 117: F#
    &[122],
    // 118: Fish
    &[123],
    // 119: Fortran (Fixed Form)
    &[124],
    // 120: Fortran (Modern)
    &[125],
    // 121: Fortran Namelist
    &[126],
    // 122: GFortran Build Results
    &[127],
    // 123: OpenMP (Fortran)
    &[128],
    // 124: fstab
    &[129],
    // 125: GDScript (Godot Engine)
    &[130],
    // 126: GLSL
    &[131],
    // 127: Gomod
    &[132],
    // 128: Gosum
    &[133],
    // 129: GraphQL
    &[134],
    // 130: Groff/troff
    &[135],
    // 131: group
    &[136],
    // 132: CSS, HTML, Regular Expressions (Javascript), Python, Regular Expressions (Python), Ruby, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, GraphQL, HTML (Twig), JavaScript (Babel)
    &[10, 29, 38, 61, 62, 73, 76, 78, 79, 80, 134, 137, 140],
    // 133: INI
    &[138],
    // 134: Idris
    &[139],
    // 135: Regular Expressions (Javascript), GraphQL, JavaScript (Babel)
    &[38, 134, 140],
    // 136: CSS, HTML, Regular Expressions (Javascript), GraphQL, JavaScript (Babel), HTML (Jinja2), Jinja2
    &[10, 29, 38, 134, 140, 141, 142],
    // 137: Jinja2
    &[142],
    // 138: jsonnet
    &[143],
    // 139: Regular Expressions (Python), Julia
    &[62, 144],
    // 140: Kotlin
    &[145],
    // 141: Less
    &[146],
    // 142: LLVM
    &[147],
    // 143: Lean 4
    &[148],
    // 144: LiveScript
    &[149],
    // 145: C, Manpage
    &[9, 150],
    // 146: MediawikerPanel
    &[151],
    // 147: ASP, HTML (ASP), ActionScript, AppleScript, Batch File, C#, C++, C, CSS, Clojure, D, Diff, Erlang, Go, Groovy, HTML, Haskell, JSON, Java, Javadoc, Regular Expressions (Javascript), LaTeX, TeX, Lisp, Lua, Makefile, MATLAB, OCaml, camlp4, Objective-C++, Objective-C, PHP Source, Regular Expressions (PHP), Pascal, Perl, Python, Regular Expressions (Python), R, Ruby on Rails, Regular Expression, Ruby, SQL, Scala, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, Tcl, XML, YAML, GraphQL, INI, JavaScript (Babel), MediaWiki
    &[1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 14, 15, 26, 28, 29, 30, 32, 34, 35, 38, 41, 42, 43, 44, 46, 49, 50, 53, 54, 55, 56, 58, 59, 60, 61, 62, 64, 69, 71, 73, 76, 77, 78, 79, 80, 82, 84, 85, 134, 138, 140, 152],
    // 148: MemInfo
    &[153],
    // 149: NSIS
    &[154],
    // 150: Lua, nginx
    &[44, 155],
    // 151: Nim
    &[156],
    // 152: Ninja
    &[157],
    // 153: Nix
    &[158],
    // 154: C++, C, CSS, Diff, Go, HTML, Haskell, JSON, Java, Javadoc, Regular Expressions (Javascript), LaTeX, TeX, Lisp, Lua, Objective-C++, Objective-C, PHP Source, Regular Expressions (PHP), Perl, Python, Regular Expressions (Python), R, Regular Expression, Ruby, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, XML, YAML, GraphQL, JavaScript (Babel), orgmode
    &[8, 9, 10, 14, 26, 29, 30, 32, 34, 35, 38, 41, 42, 43, 44, 54, 55, 56, 58, 60, 61, 62, 64, 71, 73, 76, 78, 79, 80, 84, 85, 134, 140, 159],
    // 155: passwd
    &[160],
    // 156: PowerShell
    &[161],
    // 157: Protocol Buffer, Protocol Buffer (TEXT)
    &[162, 163],
    // 158: Protocol Buffer (TEXT)
    &[163],
    // 159: Puppet
    &[164],
    // 160: Regular Expressions (Javascript), GraphQL, JavaScript (Babel), PureScript
    &[38, 134, 140, 165],
    // 161: Regular Expressions (Javascript), GraphQL, JavaScript (Babel), QML
    &[38, 134, 140, 166],
    // 162: Racket
    &[167],
    // 163: Rego
    &[168],
    // 164: Requirements.txt
    &[169],
    // 165: resolv
    &[170],
    // 166: Robot Framework
    &[171],
    // 167: YAML, SCSS, Sass
    &[85, 172, 173],
    // 168: YAML, Sass
    &[85, 173],
    // 169: YAML, Jinja2, Salt State (SLS)
    &[85, 142, 174],
    // 170: SML
    &[175],
    // 171: C#, C++, C, CSS, Go, Graphviz (DOT), HTML, JSON, Java, Javadoc, Regular Expressions (Javascript), Markdown, Objective-C++, Objective-C, PHP Source, PHP, Regular Expressions (PHP), Python, Regular Expressions (Python), R, Ruby on Rails, Regular Expression, Ruby, Rust, SQL, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, XML, YAML, CoffeeScript, GraphQL, JavaScript (Babel), Less, Puppet, SCSS, Sass, Ruby Slim, TypeScript
    &[7, 8, 9, 10, 26, 27, 29, 32, 34, 35, 38, 47, 54, 55, 56, 57, 58, 61, 62, 64, 69, 71, 73, 75, 76, 78, 79, 80, 84, 85, 107, 134, 140, 146, 164, 172, 173, 176, 192],
    // 172: VHDL
    &[177],
    // 173: Navigational Bar VHDL
    &[178],
    // 174: Strace
    &[179],
    // 175: Stylus
    &[180],
    // 176: Solidity
    &[181],
    // 177: Vyper
    &[182],
    // 178: JQ
    &[183],
    // 179: Plain Text, CSS, JavaScript, Regular Expressions (Javascript), YAML, CoffeeScript, GraphQL, JavaScript (Babel), Less, LiveScript, SCSS, Sass, Stylus, Svelte, TypeScript
    &[0, 10, 37, 38, 85, 107, 134, 140, 146, 149, 172, 173, 180, 184, 192],
    // 180: Swift
    &[185],
    // 181: SystemVerilog
    &[186],
    // 182: Navigational Bar SV
    &[187],
    // 183: TOML
    &[188],
    // 184: JSON, JSON (Terraform)
    &[32, 189],
    // 185: Terraform
    &[190],
    // 186: Todo.txt
    &[191],
    // 187: TypeScript
    &[192],
    // 188: TypeScriptReact
    &[193],
    // 189: Verilog
    &[194],
    // 190: VimHelp
    &[195],
    // 191: VimL
    &[196],
    // 192: Plain Text, CSS, Regular Expressions (Javascript), YAML, CoffeeScript, GraphQL, JavaScript (Babel), Less, LiveScript, SCSS, Sass, Stylus, TypeScript, Vue Component
    &[0, 10, 38, 85, 107, 134, 140, 146, 149, 172, 173, 180, 192, 197],
    // 193: Zig
    &[198],
    // 194: debsources
    &[199],
    // 195: C, Manpage, Command Help
    &[9, 150, 200],
    // 196: gnuplot
    &[201],
    // 197: Hosts File
    &[202],
    // 198: Plain Text, CSS, HTML, JSON, Regular Expressions (Javascript), XML, GraphQL, JavaScript (Babel), HTTP Request and Response
    &[0, 10, 29, 32, 38, 84, 134, 140, 203],
    // 199: log
    &[204],
    // 200: Highlight non-printables
    &[205],
    // 201: Bourne Again Shell (bash), commands-builtin-shell-bash, Authorized Keys, SSH Common, SSH Crypto
    &[78, 80, 206, 209, 211],
    // 202: Known Hosts, SSH Common, SSH Crypto
    &[207, 209, 211],
    // 203: Private Key
    &[208],
    // 204: SSH Common
    &[209],
    // 205: Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, SSH Common, SSH Config, SSH Crypto
    &[78, 79, 80, 209, 210, 211],
    // 206: SSH Common, SSH Crypto
    &[209, 211],
    // 207: Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, SSH Common, SSH Crypto, SSHD Config
    &[78, 79, 80, 209, 211, 212],
    // 208: Odin
    &[213],
    // 209: Bourne Again Shell (bash), commands-builtin-shell-bash, log, syslog
    &[78, 80, 204, 214],
    // 210: Typst Build Results
    &[215],
    // 211: Plain Text, ActionScript, AppleScript, Batch File, C#, C++, C, CSS, Clojure, Diff, Erlang, Go, Graphviz (DOT), HTML, Haskell, JSON, Java Server Page (JSP), Java, Javadoc, Regular Expressions (Javascript), LaTeX, TeX, Lisp, Lua, Makefile, MATLAB, OCaml, camlp4, Objective-C++, Objective-C, PHP Source, PHP, Regular Expressions (PHP), Perl, Python, Regular Expressions (Python), R, Regular Expression, Ruby, Rust, SQL, Scala, Bourne Again Shell (bash), Shell-Unix-Generic, commands-builtin-shell-bash, XML, YAML, GraphQL, JavaScript (Babel), TypeScript, TypeScriptReact, Typst
    &[0, 3, 4, 5, 7, 8, 9, 10, 11, 14, 15, 26, 27, 29, 30, 32, 33, 34, 35, 38, 41, 42, 43, 44, 46, 49, 50, 53, 54, 55, 56, 57, 58, 60, 61, 62, 64, 71, 73, 75, 76, 77, 78, 79, 80, 84, 85, 134, 140, 192, 193, 216],
    // 212: Typst Code
    &[217],
    // 213: varlink
    &[218],
    // 214: WGSL
    &[219],
];

/// The reach of each grammar of the dump, in its order: an index into [`REACHES`].
pub(super) const REACH_OF: &[u16] = &[
    0, // 0: Plain Text
    1, // 1: ASP
    1, // 2: HTML (ASP)
    2, // 3: ActionScript
    3, // 4: AppleScript
    4, // 5: Batch File
    5, // 6: NAnt Build File
    6, // 7: C#
    7, // 8: C++
    8, // 9: C
    9, // 10: CSS
    10, // 11: Clojure
    11, // 12: D
    12, // 13: DMD Output
    13, // 14: Diff
    14, // 15: Erlang
    15, // 16: HTML (Erlang)
    16, // 17: Git Attributes
    17, // 18: Git Commit
    18, // 19: Git Common
    19, // 20: Git Config
    20, // 21: Git Ignore
    21, // 22: Git Link
    22, // 23: Git Log
    23, // 24: Git Mailmap
    24, // 25: Git Rebase Todo
    25, // 26: Go
    26, // 27: Graphviz (DOT)
    27, // 28: Groovy
    28, // 29: HTML
    29, // 30: Haskell
    30, // 31: Literate Haskell
    31, // 32: JSON
    32, // 33: Java Server Page (JSP)
    33, // 34: Java
    34, // 35: Javadoc
    35, // 36: Java Properties
    36, // 37: JavaScript
    37, // 38: Regular Expressions (Javascript)
    38, // 39: BibTeX
    39, // 40: LaTeX Log
    40, // 41: LaTeX
    41, // 42: TeX
    42, // 43: Lisp
    43, // 44: Lua
    44, // 45: Make Output
    45, // 46: Makefile
    46, // 47: Markdown
    47, // 48: MultiMarkdown
    48, // 49: MATLAB
    49, // 50: OCaml
    50, // 51: OCamllex
    51, // 52: OCamlyacc
    49, // 53: camlp4
    52, // 54: Objective-C++
    53, // 55: Objective-C
    54, // 56: PHP Source
    55, // 57: PHP
    56, // 58: Regular Expressions (PHP)
    57, // 59: Pascal
    58, // 60: Perl
    59, // 61: Python
    60, // 62: Regular Expressions (Python)
    61, // 63: R Console
    62, // 64: R
    63, // 65: Rd (R Documentation)
    64, // 66: HTML (Rails)
    65, // 67: JavaScript (Rails)
    66, // 68: Ruby Haml
    67, // 69: Ruby on Rails
    68, // 70: SQL (Rails)
    69, // 71: Regular Expression
    70, // 72: reStructuredText
    71, // 73: Ruby
    72, // 74: Cargo Build Results
    73, // 75: Rust
    74, // 76: SQL
    75, // 77: Scala
    76, // 78: Bourne Again Shell (bash)
    77, // 79: Shell-Unix-Generic
    76, // 80: commands-builtin-shell-bash
    78, // 81: HTML (Tcl)
    79, // 82: Tcl
    80, // 83: Textile
    81, // 84: XML
    82, // 85: YAML
    83, // 86: AWK
    84, // 87: Ada
    85, // 88: Apache Conf
    86, // 89: AsciiDoc (Asciidoctor)
    87, // 90: ARM Assembly
    88, // 91: x86_64 Assembly
    89, // 92: CFML
    89, // 93: CFML Script (Tags)
    89, // 94: CFML Script
    90, // 95: TestBox
    91, // 96: CMake C Header
    92, // 97: CMake C++ Header
    93, // 98: CMake
    94, // 99: CMakeCache
    95, // 100: CMakeCommands
    96, // 101: Comma Separated Values
    97, // 102: Pipe Separated Values
    98, // 103: Semi-Colon Separated Values
    99, // 104: Separated Values
    100, // 105: Tab Separated Values
    101, // 106: Cabal
    102, // 107: CoffeeScript
    103, // 108: CpuInfo
    104, // 109: Crontab
    105, // 110: Crystal
    106, // 111: Dart
    107, // 112: Dockerfile (with bash)
    108, // 113: Dockerfile
    109, // 114: DotENV
    110, // 115: Elixir
    111, // 116: HTML (EEx)
    112, // 117: Regular Expressions (Elixir)
    113, // 118: Elm Compile Messages
    114, // 119: Elm Documentation
    115, // 120: Elm
    116, // 121: Email
    117, // 122: F#
    118, // 123: Fish
    119, // 124: Fortran (Fixed Form)
    120, // 125: Fortran (Modern)
    121, // 126: Fortran Namelist
    122, // 127: GFortran Build Results
    123, // 128: OpenMP (Fortran)
    124, // 129: fstab
    125, // 130: GDScript (Godot Engine)
    126, // 131: GLSL
    127, // 132: Gomod
    128, // 133: Gosum
    129, // 134: GraphQL
    130, // 135: Groff/troff
    131, // 136: group
    132, // 137: HTML (Twig)
    133, // 138: INI
    134, // 139: Idris
    135, // 140: JavaScript (Babel)
    136, // 141: HTML (Jinja2)
    137, // 142: Jinja2
    138, // 143: jsonnet
    139, // 144: Julia
    140, // 145: Kotlin
    141, // 146: Less
    142, // 147: LLVM
    143, // 148: Lean 4
    144, // 149: LiveScript
    145, // 150: Manpage
    146, // 151: MediawikerPanel
    147, // 152: MediaWiki
    148, // 153: MemInfo
    149, // 154: NSIS
    150, // 155: nginx
    151, // 156: Nim
    152, // 157: Ninja
    153, // 158: Nix
    154, // 159: orgmode
    155, // 160: passwd
    156, // 161: PowerShell
    157, // 162: Protocol Buffer
    158, // 163: Protocol Buffer (TEXT)
    159, // 164: Puppet
    160, // 165: PureScript
    161, // 166: QML
    162, // 167: Racket
    163, // 168: Rego
    164, // 169: Requirements.txt
    165, // 170: resolv
    166, // 171: Robot Framework
    167, // 172: SCSS
    168, // 173: Sass
    169, // 174: Salt State (SLS)
    170, // 175: SML
    171, // 176: Ruby Slim
    172, // 177: VHDL
    173, // 178: Navigational Bar VHDL
    174, // 179: Strace
    175, // 180: Stylus
    176, // 181: Solidity
    177, // 182: Vyper
    178, // 183: JQ
    179, // 184: Svelte
    180, // 185: Swift
    181, // 186: SystemVerilog
    182, // 187: Navigational Bar SV
    183, // 188: TOML
    184, // 189: JSON (Terraform)
    185, // 190: Terraform
    186, // 191: Todo.txt
    187, // 192: TypeScript
    188, // 193: TypeScriptReact
    189, // 194: Verilog
    190, // 195: VimHelp
    191, // 196: VimL
    192, // 197: Vue Component
    193, // 198: Zig
    194, // 199: debsources
    195, // 200: Command Help
    196, // 201: gnuplot
    197, // 202: Hosts File
    198, // 203: HTTP Request and Response
    199, // 204: log
    200, // 205: Highlight non-printables
    201, // 206: Authorized Keys
    202, // 207: Known Hosts
    203, // 208: Private Key
    204, // 209: SSH Common
    205, // 210: SSH Config
    206, // 211: SSH Crypto
    207, // 212: SSHD Config
    208, // 213: Odin
    209, // 214: syslog
    210, // 215: Typst Build Results
    211, // 216: Typst
    212, // 217: Typst Code
    213, // 218: varlink
    214, // 219: WGSL
];
