//! Waymark's icon, drawn in code: a black W on the overlay's yellow (#ffd700), in a rounded square
//! with a black ring — the look of the numbered badges on the page. Drawn at each size the stores and
//! the browser use (16, 32, 48, 128 px) rather than scaled down from one picture, so the small
//! toolbar icon keeps whole-pixel strokes.
//!
//! Each pixel is the average of 4×4 samples of the shapes (an anti-aliased edge without a graphics
//! library), so the same build gives the same bytes. What it must not do: read fonts or any
//! file — nothing outside this code decides how the icon looks.

/// The sizes the manifest names.
pub const SIZES: [u32; 4] = [16, 32, 48, 128];

const YELLOW: [f32; 3] = [1.0, 215.0 / 255.0, 0.0];
const BLACK: [f32; 3] = [0.0, 0.0, 0.0];
const SAMPLES: u32 = 4;

/// The W's strokes, as a polyline in the badge's unit square (x right, y down).
const W: [(f32, f32); 5] = [
    (0.17, 0.26),
    (0.34, 0.76),
    (0.5, 0.40),
    (0.66, 0.76),
    (0.83, 0.26),
];

#[derive(Debug, thiserror::Error)]
pub enum IconError {
    #[error("cannot encode the {size} px icon as PNG: {source}")]
    Png { size: u32, source: png::EncodingError },
}

/// Transparent space around the badge: the store shows its 128 px icon with 16 px of padding (96 px
/// of artwork); the toolbar sizes use nearly all their pixels.
fn margin(size: u32) -> f32 {
    match size {
        128.. => 16.0,
        48.. => 2.0,
        32.. => 1.0,
        _ => 0.0,
    }
}

/// The icon as RGBA bytes, row by row.
pub fn rgba(size: u32) -> Vec<u8> {
    let side = size as f32 - 2.0 * margin(size);
    let centre = size as f32 / 2.0;
    let half = side / 2.0;
    let radius = side * 0.2;
    // At least one pixel of ring, as the badges have.
    let ring = (side / 16.0).max(1.0);
    let stroke = side * 0.075;
    let points: Vec<(f32, f32)> = W
        .iter()
        .map(|&(x, y)| (centre - half + x * side, centre - half + y * side))
        .collect();

    let mut out = Vec::with_capacity((size * size * 4) as usize);
    for py in 0..size {
        for px in 0..size {
            let mut colour = [0.0f32; 3];
            let mut cover = 0.0f32;
            for sy in 0..SAMPLES {
                for sx in 0..SAMPLES {
                    let x = px as f32 + (sx as f32 + 0.5) / SAMPLES as f32;
                    let y = py as f32 + (sy as f32 + 0.5) / SAMPLES as f32;
                    let edge = rounded_square(x - centre, y - centre, half, radius);
                    if edge > 0.0 {
                        continue;
                    }
                    let ink = edge > -ring || near_polyline(x, y, &points, stroke);
                    let paint = if ink { BLACK } else { YELLOW };
                    for (c, p) in colour.iter_mut().zip(paint) {
                        *c += p;
                    }
                    cover += 1.0;
                }
            }
            let alpha = cover / (SAMPLES * SAMPLES) as f32;
            for c in colour {
                let value = if cover > 0.0 { c / cover } else { 0.0 };
                out.push((value * 255.0).round() as u8);
            }
            out.push((alpha * 255.0).round() as u8);
        }
    }
    out
}

/// The icon as a PNG file.
pub fn png(size: u32) -> Result<Vec<u8>, IconError> {
    let err = |source| IconError::Png { size, source };
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, size, size);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(err)?;
        writer.write_image_data(&rgba(size)).map_err(err)?;
        writer.finish().map_err(err)?;
    }
    Ok(bytes)
}

/// Signed distance from (x, y), relative to the centre, to a square of half side `half` with corners
/// of `radius`: negative inside.
fn rounded_square(x: f32, y: f32, half: f32, radius: f32) -> f32 {
    let qx = x.abs() - (half - radius);
    let qy = y.abs() - (half - radius);
    let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
    outside + qx.max(qy).min(0.0) - radius
}

/// Whether (x, y) is within `half_width` of the polyline.
fn near_polyline(x: f32, y: f32, points: &[(f32, f32)], half_width: f32) -> bool {
    points
        .windows(2)
        .any(|pair| segment_distance(x, y, pair[0], pair[1]) <= half_width)
}

fn segment_distance(x: f32, y: f32, (ax, ay): (f32, f32), (bx, by): (f32, f32)) -> f32 {
    let (dx, dy) = (bx - ax, by - ay);
    let length = dx * dx + dy * dy;
    let t = if length == 0.0 {
        0.0
    } else {
        (((x - ax) * dx + (y - ay) * dy) / length).clamp(0.0, 1.0)
    };
    let (cx, cy) = (ax + t * dx - x, ay + t * dy - y);
    (cx * cx + cy * cy).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pixel(image: &[u8], size: u32, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * size + x) * 4) as usize;
        [image[i], image[i + 1], image[i + 2], image[i + 3]]
    }

    #[test]
    fn the_icon_is_a_black_w_on_yellow_inside_a_black_ring() {
        for size in SIZES {
            let image = rgba(size);
            assert_eq!(image.len(), (size * size * 4) as usize);
            let m = margin(size) as u32;
            // The ring, just inside the edge's middle.
            assert_eq!(pixel(&image, size, size / 2, m), [0, 0, 0, 255], "{size}: ring");
            // Yellow between the W's arms at the top.
            let yellow = pixel(&image, size, size / 2, m + (size - 2 * m) / 5);
            assert_eq!(yellow, [255, 215, 0, 255], "{size}: field");
            // The W's middle peak is ink.
            let peak = pixel(&image, size, size / 2, m + ((size - 2 * m) as f32 * 0.45) as u32);
            assert_eq!(peak[..3], [0, 0, 0], "{size}: the W");
            // The corners are transparent: the badge is rounded.
            assert_eq!(pixel(&image, size, 0, 0)[3], 0, "{size}: corner");
        }
    }

    #[test]
    fn the_pngs_are_the_sizes_they_say() {
        for size in SIZES {
            let bytes = png(size).unwrap();
            let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
            let reader = decoder.read_info().unwrap();
            assert_eq!((reader.info().width, reader.info().height), (size, size));
        }
        assert_eq!(png(48).unwrap(), png(48).unwrap(), "the same bytes every time");
    }
}
