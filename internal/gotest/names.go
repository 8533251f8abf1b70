package gotest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// workerNames are the names the worker takes in one package: its files
// must not replace a file of the package, nor declare or import a name
// the package declares (bytes already declared through import of package
// bytes), nor call a builtin the package redeclares. So the worker is a
// package of its own (HelperPath), in a directory beside the package's
// files that exists only in the overlay, where no name of the package
// reaches; the files it adds to the package (TestFile, the worker's test
// function; RegisterFile, the external test package's registration of
// its benchmarks; RequestFile and AssemblyFile, the client request's
// assembly, which needs a directory on disk) call no builtin, and every
// name they declare (Test, Tag+"ClientRequest"...) or import under
// (Tag+"testing", Tag+"worker"), and every file name, starts with Tag
// or with "Test" and Tag capitalized.
type workerNames struct {
	// Tag starts every name the worker adds: no identifier declared or
	// imported by a file of the package's directory, nor symbol of its
	// assembly, starts with it (nor with "Test" and Tag capitalized), no
	// entry of the directory with "zz_" and it.
	Tag string
	// Test is the worker's test function, which the binary is started
	// with (-test.run).
	Test string
	// TestFile and RegisterFile are the two files in the package's
	// directory; HelperDir is the worker's package's directory and
	// HelperPath its import path.
	TestFile, RegisterFile string
	HelperDir, HelperPath  string
}

// RequestFile is the file of the client request's Go declarations for
// arch, a test file of the package, and AssemblyFile its assembly, a file
// of the package itself (a test file cannot hold assembly; the worker's
// package has no directory the assembler can run in).
func (n workerNames) RequestFile(arch string) string {
	return "zz_" + n.Tag + "_request_" + arch + "_test.go"
}

// AssemblyFile: see RequestFile.
func (n workerNames) AssemblyFile(arch string) string {
	return "zz_" + n.Tag + "_request_" + arch + ".s"
}

// maxTags bounds the tags tried: a package would have to declare names
// starting with every one of them.
const maxTags = 1000

// chooseNames finds the worker's names in p: the first tag of wirebench,
// wirebench2, wirebench3, ... that nothing in p's directory starts with
// (freeTag), with the names made of it.
func chooseNames(p Package) (workerNames, error) {
	entries, err := os.ReadDir(p.Dir)
	if err != nil {
		return workerNames{}, fmt.Errorf("the files of %s: %w", p.ImportPath, err)
	}
	declared := declaredNames(p.Dir, entries)
	files := make([]string, len(entries))
	for i, e := range entries {
		files[i] = e.Name()
	}
	for _, dir := range p.Peers {
		// The other side's package: its names count too (a peer that
		// cannot be read, or has no such package, adds none).
		if more, err := os.ReadDir(dir); err == nil {
			declared = append(declared, declaredNames(dir, more)...)
			for _, e := range more {
				files = append(files, e.Name())
			}
		}
	}
	for i := 1; i <= maxTags; i++ {
		tag := "wirebench"
		if i > 1 {
			tag += strconv.Itoa(i)
		}
		if freeTag(tag, declared, files) {
			return namesFor(tag, p), nil
		}
	}
	return workerNames{}, fmt.Errorf("%s: every name the worker could take in it (wirebench to wirebench%d) is taken", p.ImportPath, maxTags)
}

// namesFor is the worker's names in p made of tag.
func namesFor(tag string, p Package) workerNames {
	test := "Test" + strings.ToUpper(tag[:1]) + tag[1:] + "Worker"
	helper := "zz_" + tag + "_worker"
	return workerNames{
		Tag:          tag,
		Test:         test,
		TestFile:     "zz_" + tag + "_worker_test.go",
		RegisterFile: "zz_" + tag + "_register_test.go",
		HelperDir:    filepath.Join(p.Dir, helper),
		HelperPath:   p.ImportPath + "/" + helper,
	}
}

// freeTag reports whether no name of declared starts with tag or with
// the test function's prefix ("Test" and tag capitalized), and no file
// name of files with "zz_" and tag, whatever its case (a file system
// may not tell case apart).
func freeTag(tag string, declared, files []string) bool {
	test := "Test" + strings.ToUpper(tag[:1]) + tag[1:]
	for _, name := range declared {
		if strings.HasPrefix(name, tag) || strings.HasPrefix(name, test) {
			return false
		}
	}
	for _, f := range files {
		if strings.HasPrefix(strings.ToLower(f), "zz_"+tag) {
			return false
		}
	}
	return true
}

// declaredNames are the package-level identifiers and import names of
// every .go file of entries, in dir, and the package's symbols its assembly files
// name: of the package and its test files, internal and external,
// whatever their build constraints (a file another build would compile
// costs a name at most). A file that does not parse gives the names
// before its error, and one that cannot be read none: if the build
// compiles it, the build fails anyway and says why.
func declaredNames(dir string, entries []os.DirEntry) []string {
	fset := token.NewFileSet()
	var names []string
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		switch {
		case e.IsDir():
		case strings.HasSuffix(e.Name(), ".go"):
			file, _ := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if file != nil {
				names = append(names, fileNames(file)...)
			}
		case strings.HasSuffix(e.Name(), ".s"):
			src, _ := os.ReadFile(path) // unreadable, it fails the build
			for _, m := range asmSymbol.FindAllStringSubmatch(string(src), -1) {
				names = append(names, m[1])
			}
		}
	}
	return names
}

// asmSymbol is a symbol of the package in its assembly (TEXT ·name(SB),
// GLOBL ·name(SB), or its import path before the dot).
var asmSymbol = regexp.MustCompile(`·([\p{L}_][\p{L}\p{N}_]*)`)

// fileNames are the package-level identifiers file declares and the
// names it imports packages under (for an import without a name, the
// last element of its path and its parts between dots and dashes, as
// gopkg.in/yaml.v3 is yaml: a guess that may only cost a name).
func fileNames(file *ast.File) []string {
	var names []string
	for _, imp := range file.Imports {
		if imp.Name != nil {
			names = append(names, imp.Name.Name)
			continue
		}
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			continue
		}
		base := path.Base(p)
		names = append(names, base)
		names = append(names, strings.FieldsFunc(base, func(r rune) bool { return r == '.' || r == '-' })...)
	}
	for _, d := range file.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				names = append(names, d.Name.Name)
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
				}
			}
		}
	}
	return names
}
