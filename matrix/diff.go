package matrix

import (
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// diffValues compares two Go values field by field and returns the first
// difference, as a path and both values ("Items[3].Name: got "x", want
// "y""), or "" when they are equal. Equal means what a decoder can be
// asked for: nil and empty slices and maps are alike, NaN equals NaN,
// pointers are followed, unexported fields count too.
func diffValues(want, got any) string {
	return diff("", reflect.ValueOf(want), reflect.ValueOf(got))
}

// maxShown bounds a value in a difference.
const maxShown = 60

func show(v reflect.Value) string {
	if !v.IsValid() {
		return "nothing"
	}
	var s string
	switch v.Kind() {
	case reflect.String:
		s = fmt.Sprintf("%q", v.String())
	case reflect.Bool:
		s = fmt.Sprint(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		s = fmt.Sprint(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		s = fmt.Sprint(v.Uint())
	case reflect.Float32, reflect.Float64:
		s = fmt.Sprint(v.Float())
	case reflect.Slice, reflect.Array, reflect.Map:
		s = fmt.Sprintf("%s of %d", v.Type(), v.Len())
	default:
		s = v.Type().String()
	}
	if len(s) > maxShown {
		s = s[:maxShown] + "…"
	}
	return s
}

func mismatch(path string, want, got reflect.Value) string {
	if path == "" {
		path = "the value"
	}
	return fmt.Sprintf("%s: got %s, want %s", path, show(got), show(want))
}

func diff(path string, want, got reflect.Value) string {
	if !want.IsValid() || !got.IsValid() {
		if want.IsValid() != got.IsValid() {
			return mismatch(path, want, got)
		}
		return ""
	}
	if want.Type() != got.Type() {
		return fmt.Sprintf("%s: got a %s, want a %s", orValue(path), got.Type(), want.Type())
	}
	switch want.Kind() {
	case reflect.Pointer, reflect.Interface:
		if want.IsNil() || got.IsNil() {
			if want.IsNil() != got.IsNil() {
				return mismatch(path, want, got)
			}
			return ""
		}
		return diff(path, want.Elem(), got.Elem())
	case reflect.Struct:
		for i := range want.NumField() {
			if d := diff(path+"."+want.Type().Field(i).Name, want.Field(i), got.Field(i)); d != "" {
				return strings.TrimPrefix(d, ".")
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if want.Len() != got.Len() {
			return fmt.Sprintf("%s: got %d elements, want %d", orValue(path), got.Len(), want.Len())
		}
		if i, ok := firstDifferentElem(want, got); ok {
			if i < 0 {
				return ""
			}
			return mismatch(fmt.Sprintf("%s[%d]", path, i), want.Index(i), got.Index(i))
		}
		for i := range want.Len() {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), want.Index(i), got.Index(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if want.Len() != got.Len() {
			return fmt.Sprintf("%s: got %d entries, want %d", orValue(path), got.Len(), want.Len())
		}
		keys := want.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i]) < fmt.Sprint(keys[j]) })
		for _, k := range keys {
			p := fmt.Sprintf("%s[%s]", path, show(k))
			g := got.MapIndex(k)
			if !g.IsValid() {
				return p + ": missing"
			}
			if d := diff(p, want.MapIndex(k), g); d != "" {
				return d
			}
		}
		return ""
	case reflect.Float32, reflect.Float64:
		w, g := want.Float(), got.Float()
		if w == g || (math.IsNaN(w) && math.IsNaN(g)) {
			return ""
		}
		return mismatch(path, want, got)
	case reflect.String:
		if want.String() != got.String() {
			return mismatch(path, want, got)
		}
	case reflect.Bool:
		if want.Bool() != got.Bool() {
			return mismatch(path, want, got)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if want.Int() != got.Int() {
			return mismatch(path, want, got)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if want.Uint() != got.Uint() {
			return mismatch(path, want, got)
		}
	case reflect.Complex64, reflect.Complex128:
		if want.Complex() != got.Complex() {
			return mismatch(path, want, got)
		}
	default:
		// Channels and functions do not travel in messages.
		if want.CanInterface() && got.CanInterface() && !reflect.DeepEqual(want.Interface(), got.Interface()) {
			return mismatch(path, want, got)
		}
	}
	return ""
}

// firstDifferentElem compares slices or arrays of a basic kind (numbers,
// strings, booleans) element by element without building a path for each
// (a message of a million doubles would otherwise cost a million
// formatted strings): the index of the first difference, -1 when there is
// none, and false when the elements are not of a basic kind.
func firstDifferentElem(want, got reflect.Value) (int, bool) {
	switch want.Type().Elem().Kind() {
	case reflect.Float32, reflect.Float64:
		for i := range want.Len() {
			w, g := want.Index(i).Float(), got.Index(i).Float()
			if w != g && !(math.IsNaN(w) && math.IsNaN(g)) {
				return i, true
			}
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		for i := range want.Len() {
			if want.Index(i).Int() != got.Index(i).Int() {
				return i, true
			}
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		for i := range want.Len() {
			if want.Index(i).Uint() != got.Index(i).Uint() {
				return i, true
			}
		}
	case reflect.String:
		for i := range want.Len() {
			if want.Index(i).String() != got.Index(i).String() {
				return i, true
			}
		}
	case reflect.Bool:
		for i := range want.Len() {
			if want.Index(i).Bool() != got.Index(i).Bool() {
				return i, true
			}
		}
	default:
		return 0, false
	}
	return -1, true
}

func orValue(path string) string {
	if path == "" {
		return "the value"
	}
	return strings.TrimPrefix(path, ".")
}

// diffProto compares two protobuf messages and returns the first field
// that differs ("items[3].name: got "x", want "y""), or "" when
// proto.Equal holds.
func diffProto(want, got proto.Message) string {
	if proto.Equal(want, got) {
		return ""
	}
	if d := diffMessage("", want.ProtoReflect(), got.ProtoReflect()); d != "" {
		return d
	}
	return "the messages differ (unknown fields)"
}

func diffMessage(path string, want, got protoreflect.Message) string {
	fields := want.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		p := strings.TrimPrefix(path+"."+string(fd.Name()), ".")
		w, g := want.Get(fd), got.Get(fd)
		switch {
		case fd.IsList():
			wl, gl := w.List(), g.List()
			if wl.Len() != gl.Len() {
				return fmt.Sprintf("%s: got %d elements, want %d", p, gl.Len(), wl.Len())
			}
			for j := range wl.Len() {
				if d := diffField(fmt.Sprintf("%s[%d]", p, j), fd, wl.Get(j), gl.Get(j)); d != "" {
					return d
				}
			}
		case fd.IsMap():
			wm, gm := w.Map(), g.Map()
			if wm.Len() != gm.Len() {
				return fmt.Sprintf("%s: got %d entries, want %d", p, gm.Len(), wm.Len())
			}
			var d string
			wm.Range(func(k protoreflect.MapKey, v protoreflect.Value) bool {
				if !gm.Has(k) {
					d = fmt.Sprintf("%s[%v]: missing", p, k.Interface())
					return false
				}
				d = diffField(fmt.Sprintf("%s[%v]", p, k.Interface()), fd.MapValue(), v, gm.Get(k))
				return d == ""
			})
			if d != "" {
				return d
			}
		default:
			if d := diffField(p, fd, w, g); d != "" {
				return d
			}
		}
	}
	return ""
}

func diffField(path string, fd protoreflect.FieldDescriptor, w, g protoreflect.Value) string {
	if fd.Message() != nil {
		return diffMessage(path, w.Message(), g.Message())
	}
	if !w.Equal(g) {
		return fmt.Sprintf("%s: got %v, want %v", path, g.Interface(), w.Interface())
	}
	return ""
}
