package plot

import (
	"cmp"
	"image"
	"image/color"
	"slices"
)

// quantize returns img as an 8-bit paletted image, which PNG stores in
// about a third of the space of true colour. A chart is mostly flat
// colours; only antialiased edges add more. The palette is the 256 most
// frequent colours (ties broken by value, so the result is deterministic)
// and every other colour maps to its nearest palette entry, which changes
// only a few edge pixels by a shade.
func quantize(img *image.RGBA) *image.Paletted {
	b := img.Bounds()
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[img.RGBAAt(x, y)]++
		}
	}
	colors := make([]color.RGBA, 0, len(counts))
	for c := range counts {
		colors = append(colors, c)
	}
	slices.SortFunc(colors, func(a, b color.RGBA) int {
		if c := cmp.Compare(counts[b], counts[a]); c != 0 {
			return c
		}
		return cmp.Compare(pack(a), pack(b))
	})
	pal := make(color.Palette, 0, 256)
	index := make(map[color.RGBA]uint8, len(colors))
	for i, c := range colors[:min(256, len(colors))] {
		pal = append(pal, c)
		index[c] = uint8(i)
	}
	for _, c := range colors[len(pal):] {
		best, bestD := 0, -1
		for i, p := range pal {
			p := p.(color.RGBA)
			d := sq(int(c.R)-int(p.R)) + sq(int(c.G)-int(p.G)) + sq(int(c.B)-int(p.B)) + sq(int(c.A)-int(p.A))
			if bestD < 0 || d < bestD {
				best, bestD = i, d
			}
		}
		index[c] = uint8(best)
	}
	out := image.NewPaletted(b, pal)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			out.SetColorIndex(x, y, index[img.RGBAAt(x, y)])
		}
	}
	return out
}

func pack(c color.RGBA) uint32 {
	return uint32(c.R)<<24 | uint32(c.G)<<16 | uint32(c.B)<<8 | uint32(c.A)
}

func sq(x int) int { return x * x }
