//! Where each badge goes: just outside what it marks, so it hides neither the first letters of a label
//! or value nor another badge's digits, else along its row ([`place`]). Each spot is checked only
//! against the boxes near it (a grid of cells, [`Near`]), so placing n badges costs about n times the
//! few boxes around each, never every badge against every other.
//!
//! Must not: read the page (it works on boxes already read), or put a badge outside the viewport.

use std::collections::HashMap;

use crate::detect::Rect;

/// A box: left, top, width, height.
type Box4 = (f64, f64, f64, f64);

/// A badge's box without its rings: 14 px bold digits (under 10 px each) on an 18 px line, 4 px of
/// padding and a 1 px border each side, at least 20 px wide (see the overlay's style).
pub(super) fn badge_size(number: u32) -> (f64, f64) {
    let digits = number.to_string().len() as f64;
    ((digits * 10.0 + 10.0).max(20.0), 20.0)
}

/// The 2 px of rings drawn around a badge: a neighbour's digits must not be under them either.
const RING: f64 = 2.0;

/// The side of a cell of [`Near`], in CSS pixels: about two badges.
const CELL: f64 = 48.0;

/// Boxes filed by the grid cells they cover, so the boxes overlapping a spot are found among the few
/// in its cells.
struct Near {
    boxes: Vec<Box4>,
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl Near {
    fn new() -> Self {
        Self {
            boxes: Vec::new(),
            cells: HashMap::new(),
        }
    }

    /// The cells a box covers (a box touching a cell's edge counts as in it: a superset is harmless).
    fn cells_of((x, y, w, h): Box4) -> impl Iterator<Item = (i64, i64)> {
        let span = |from: f64, size: f64| {
            let first = (from / CELL).floor() as i64;
            let last = ((from + size.max(0.0)) / CELL).floor() as i64;
            first..=last
        };
        let rows = span(y, h);
        span(x, w).flat_map(move |cx| rows.clone().map(move |cy| (cx, cy)))
    }

    fn insert(&mut self, b: Box4) {
        let index = self.boxes.len();
        self.boxes.push(b);
        for cell in Self::cells_of(b) {
            self.cells.entry(cell).or_default().push(index);
        }
    }

    /// Whether a box near `spot` overlaps it, among those (by their order of insertion) for which
    /// `counts` holds.
    fn any_over(&self, spot: Box4, counts: impl Fn(usize) -> bool) -> bool {
        Self::cells_of(spot).any(|cell| {
            self.cells
                .get(&cell)
                .is_some_and(|found| found.iter().any(|&i| overlap(spot, self.boxes[i]) && counts(i)))
        })
    }
}

/// Whether two boxes overlap (touching edges do not).
fn overlap((x, y, w, h): Box4, (tx, ty, tw, th): Box4) -> bool {
    x < tx + tw && tx < x + w && y < ty + th && ty < y + h
}

/// The spots tried for a badge of size `w`×`h` at `r`, best first: just outside its element (left,
/// above, right, below), inside its right end, then nearby: half a badge further along each time, on
/// its row first, then on the rows above and below.
fn spots(r: &Rect, (w, h): (f64, f64)) -> impl Iterator<Item = (f64, f64)> {
    let gap = RING * 2.0;
    let first = [
        (r.left - w - gap, r.top),
        (r.left, r.top - h - gap),
        (r.right + gap, r.top),
        (r.left, r.bottom + gap),
        (r.right - w, r.top),
        (r.right - w, r.bottom - h),
    ];
    let (sx, sy) = (w / 2.0 + gap, h + gap);
    let (left, top) = (r.left, r.top);
    first.into_iter().chain(
        NEARBY
            .iter()
            .map(move |&(i, j)| (left + f64::from(i) * sx, top + f64::from(j) * sy)),
    )
}

/// The steps of the search nearby, in order: (along the row, rows up or down).
const NEARBY: [(i32, i32); 125] = nearby();

const fn nearby() -> [(i32, i32); 125] {
    // (|i| + 4|j|, j, i) ascending, as a sort would give; built at compile time.
    let mut out = [(0, 0); 125];
    let mut n = 0;
    let mut cost = 0;
    while cost <= 12 + 4 * 2 {
        let mut j = -2;
        while j <= 2 {
            let mut i = -12;
            while i <= 12 {
                let ai = if i < 0 { -i } else { i };
                let aj = if j < 0 { -j } else { j };
                if ai + 4 * aj == cost {
                    out[n] = (i, j);
                    n += 1;
                }
                i += 1;
            }
            j += 1;
        }
        cost += 1;
    }
    out
}

/// Where each badge goes (its top-left, inside the viewport). A badge must not hide the first letters
/// of what it marks, nor another control's, nor another badge's digits: so first just outside its
/// element — to the left, then above, to the right, below — where it covers no numbered control; then
/// inside its element's right end (past the first letters); then nearby (along its row, then the rows
/// above and below). Only if none of those is free of other controls does a badge go over one (still
/// never over another badge), and if every spot is taken it stays at the element's left, outside.
/// Badges are placed in numbering order, so the lower number gets the first choice.
pub(super) fn place(shown: &[(Rect, u32)], (width, height): (f64, f64)) -> Vec<(f64, f64, u32)> {
    let mut taken = Near::new();
    let mut controls = Near::new();
    // The numbered controls' boxes: a badge over one hides its words. Only the part near the viewport
    // matters (badges stay inside it), so a page-long control fills no more cells than the screen;
    // which controls are the same box as a badge's own is told by their whole boxes.
    let whole: Vec<Box4> = shown
        .iter()
        .map(|(r, _)| (r.left, r.top, r.right - r.left, r.bottom - r.top))
        .collect();
    let margin = CELL;
    for (r, _) in shown {
        let (x0, y0) = (r.left.max(-margin), r.top.max(-margin));
        let (x1, y1) = (r.right.min(width + margin), r.bottom.min(height + margin));
        controls.insert((x0, y0, (x1 - x0).max(0.0), (y1 - y0).max(0.0)));
    }
    let mut out = Vec::with_capacity(shown.len());
    for (index, (r, number)) in shown.iter().enumerate() {
        let (w, h) = badge_size(*number);
        let clamp = |(x, y): (f64, f64)| {
            (
                x.clamp(0.0, (width - w - RING).max(0.0)),
                y.clamp(0.0, (height - h - RING).max(0.0)),
            )
        };
        // Boxes with their rings.
        let (bw, bh) = (w + 2.0 * RING, h + 2.0 * RING);
        let ringed = |(x, y): (f64, f64)| (x - RING, y - RING, bw, bh);
        let own = whole[index];
        // Inside its own element's right end is allowed; over the start of it, or over any other
        // control, is not. Controls with the same box as this one count as itself.
        let own_start = (r.left, r.top, ((r.right - r.left) - w).max(0.0), r.bottom - r.top);
        let hides_words = |spot: (f64, f64)| {
            let inside_own_end = spot.0 >= r.right - w - 0.5 && spot.0 <= r.right;
            controls.any_over(ringed(spot), |other| whole[other] != own)
                || (!inside_own_end && overlap(ringed(spot), own_start))
        };
        let free = |spot: (f64, f64)| !taken.any_over(ringed(spot), |_| true);
        let candidates = || spots(r, (w, h)).map(clamp);
        let (x, y) = candidates()
            .find(|&spot| free(spot) && !hides_words(spot))
            .or_else(|| candidates().find(|&spot| free(spot)))
            .unwrap_or_else(|| clamp((r.left - w - RING * 2.0, r.top)));
        taken.insert(ringed((x, y)));
        out.push((x, y, *number));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(left: f64, top: f64, width: f64, height: f64) -> Rect {
        Rect {
            left,
            top,
            right: left + width,
            bottom: top + height,
            width,
            height,
        }
    }

    fn overlaps(placed: &[(f64, f64, u32)]) -> Vec<(u32, u32)> {
        let mut bad = Vec::new();
        for (i, &(x1, y1, n1)) in placed.iter().enumerate() {
            let (w1, h1) = badge_size(n1);
            for &(x2, y2, n2) in &placed[i + 1..] {
                let (w2, h2) = badge_size(n2);
                if x1 < x2 + w2 && x2 < x1 + w1 && y1 < y2 + h2 && y2 < y1 + h1 {
                    bad.push((n1, n2));
                }
            }
        }
        bad
    }

    /// The placement as it was first written: every spot against every badge and every control. The
    /// grid must choose exactly the same spots.
    fn every_against_every(shown: &[(Rect, u32)], (width, height): (f64, f64)) -> Vec<(f64, f64, u32)> {
        let mut taken: Vec<Box4> = Vec::new();
        let mut out = Vec::new();
        let controls: Vec<Box4> = shown
            .iter()
            .map(|(r, _)| (r.left, r.top, r.right - r.left, r.bottom - r.top))
            .collect();
        for (r, number) in shown {
            let (w, h) = badge_size(*number);
            let clamp = |(x, y): (f64, f64)| {
                (
                    x.clamp(0.0, (width - w - RING).max(0.0)),
                    y.clamp(0.0, (height - h - RING).max(0.0)),
                )
            };
            let candidates: Vec<(f64, f64)> = spots(r, (w, h)).map(clamp).collect();
            let (bw, bh) = (w + 2.0 * RING, h + 2.0 * RING);
            let over = |boxes: &[Box4], (x, y): (f64, f64)| {
                boxes.iter().any(|&b| overlap((x - RING, y - RING, bw, bh), b))
            };
            let own = (r.left, r.top, r.right - r.left, r.bottom - r.top);
            let own_start = (r.left, r.top, ((r.right - r.left) - w).max(0.0), r.bottom - r.top);
            let hides_words = |spot: (f64, f64)| {
                let inside_own_end = spot.0 >= r.right - w - 0.5 && spot.0 <= r.right;
                controls
                    .iter()
                    .filter(|c| **c != own)
                    .any(|c| over(std::slice::from_ref(c), spot))
                    || (!inside_own_end && over(std::slice::from_ref(&own_start), spot))
            };
            let (x, y) = candidates
                .iter()
                .copied()
                .find(|&spot| !over(&taken, spot) && !hides_words(spot))
                .or_else(|| candidates.iter().copied().find(|&spot| !over(&taken, spot)))
                .unwrap_or_else(|| clamp((r.left - w - RING * 2.0, r.top)));
            taken.push((x - RING, y - RING, bw, bh));
            out.push((x, y, *number));
        }
        out
    }

    #[test]
    fn the_nearby_search_goes_along_the_row_first_then_to_the_rows_around() {
        let mut sorted: Vec<(i32, i32)> = (-2..=2).flat_map(|j| (-12..=12).map(move |i| (i, j))).collect();
        sorted.sort_by_key(|&(i, j)| (i.abs() + 4 * j.abs(), j, i));
        assert_eq!(NEARBY.to_vec(), sorted);
    }

    #[test]
    fn the_grid_places_every_badge_where_checking_every_box_would() {
        // Seeded pseudo-random pages: dense rows of small controls, big regions over them, controls
        // partly off screen, duplicates with the same box.
        let mut seed = 0x2545_f491_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % 10_000) as f64 / 10_000.0
        };
        for page in 0..24 {
            let count = 20 + page * 8;
            let mut shown = Vec::new();
            for n in 0..count {
                let (w, h) = if next() < 0.1 {
                    (200.0 + next() * 900.0, 100.0 + next() * 600.0)
                } else {
                    (8.0 + next() * 120.0, 12.0 + next() * 30.0)
                };
                let r = rect(next() * 1260.0 - 40.0, next() * 860.0 - 40.0, w, h);
                shown.push((r, n as u32 + 1));
                if next() < 0.05 {
                    shown.push((r, n as u32 + 1000));
                }
            }
            assert_eq!(
                place(&shown, (1200.0, 800.0)),
                every_against_every(&shown, (1200.0, 800.0)),
                "page {page}"
            );
        }
    }

    #[test]
    fn a_badge_sits_just_left_of_its_element_not_over_its_first_letters() {
        let placed = place(&[(rect(100.0, 50.0, 80.0, 30.0), 7)], (1200.0, 800.0));
        assert_eq!(placed, vec![(100.0 - 20.0 - 4.0, 50.0, 7)]);
    }

    #[test]
    fn a_badge_never_covers_the_start_of_its_element_or_a_neighbour() {
        // A field at the left edge with a button just right of it, and a link above: the field's badge
        // cannot go left (off screen, so clamped over the field's start), nor onto the link or button.
        let shown = [
            (rect(0.0, 100.0, 200.0, 30.0), 1),
            (rect(204.0, 100.0, 60.0, 30.0), 2),
            (rect(0.0, 70.0, 100.0, 26.0), 3),
        ];
        let placed = place(&shown, (1200.0, 800.0));
        for &(x, y, n) in &placed {
            let (w, h) = badge_size(n);
            for (r, m) in &shown {
                let covers = x < r.right && r.left < x + w && y < r.bottom && r.top < y + h;
                let own_end = *m == n && x >= r.right - w - 0.5;
                assert!(!covers || own_end, "badge {n} at {x},{y} covers control {m}");
            }
        }
    }

    #[test]
    fn dense_controls_get_badges_that_do_not_cover_each_other() {
        // Ten links twelve pixels wide in a row, under a row of two wider controls.
        let mut shown: Vec<(Rect, u32)> = vec![
            (rect(16.0, 320.0, 60.0, 18.0), 11),
            (rect(90.0, 320.0, 60.0, 18.0), 12),
        ];
        shown.extend((0..10).map(|i| (rect(16.0 + 12.0 * i as f64, 346.0, 12.0, 16.0), 13 + i)));
        let placed = place(&shown, (1200.0, 800.0));
        assert_eq!(placed.len(), shown.len());
        assert_eq!(overlaps(&placed), vec![]);
    }

    #[test]
    fn badges_stay_inside_the_viewport() {
        let placed = place(&[(rect(1190.0, 795.0, 40.0, 40.0), 123)], (1200.0, 800.0));
        let (x, y, _) = placed[0];
        let (w, h) = badge_size(123);
        assert!(
            x >= 0.0 && x + w <= 1200.0 && y >= 0.0 && y + h <= 800.0,
            "{x},{y}"
        );
    }
}
