//! Draws a view's [`Geometry`] with wgpu: a depth buffer, 4× multisampling
//! (where the adapter has it; not for stamped points on a software
//! rasteriser, see [`Resources::samples`]) and the three layers in order, into the view's
//! own offscreen target, which an `egui_wgpu` paint callback then copies
//! into egui's pass under the labels. The bulk of points, stamped on the CPU
//! ([`Splat`]), is uploaded as two textures (colour, depth) and composited
//! into the solid layer by one full-view triangle cut to its rectangle.
//!
//! The offscreen pass is recorded in the callback's `prepare` (egui's pass
//! has no depth buffer and may not be multisampled); `paint` draws one
//! triangle sampling the result. It runs wherever eframe runs on wgpu:
//! a GPU, or Mesa's software Vulkan in CI and the snapshot tests. Without a
//! wgpu renderer (a test harness that draws nothing) the callback finds no
//! resources and draws nothing; everything else in the view still works.

use super::geometry::{Dot, Geometry, Pixels, Vertex};
use super::splat::Splat;
use eframe::egui_wgpu::{self, CallbackResources, CallbackTrait, ScreenDescriptor, wgpu};
use std::collections::HashMap;
use std::sync::Arc;

/// The offscreen colour format: egui's colours, gamma-encoded bytes.
const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;
/// The depth format (larger is nearer; cleared to 0).
const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Bytes of one triangle vertex.
const VERTEX_BYTES: u64 = std::mem::size_of::<Vertex>() as u64;
/// Bytes of one round point.
const DOT_BYTES: u64 = std::mem::size_of::<Dot>() as u64;

/// The pipelines and per-view targets, kept in `egui_wgpu`'s callback resources.
pub struct Resources {
    /// The views' pipelines for each sample count the adapter has (4 and 1,
    /// or 1), most first.
    sets: Vec<Pipelines>,
    /// Whether the adapter is a software rasteriser (llvmpipe): there 4×
    /// multisampling costs ~7 ms a frame at 800 × 800, which a view with a
    /// bulk of stamped points (anti-aliased by their own coverage) skips.
    software: bool,
    blit: wgpu::RenderPipeline,
    view_layout: wgpu::BindGroupLayout,
    blit_layout: wgpu::BindGroupLayout,
    splat_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    /// Each view's target, per sample count (a view switching between
    /// them keeps both instead of remaking one each time).
    targets: HashMap<(u64, u32), Target>,
}

/// The pipelines of one sample count.
struct Pipelines {
    samples: u32,
    solid: wgpu::RenderPipeline,
    solid_dots: wgpu::RenderPipeline,
    fills: wgpu::RenderPipeline,
    overlay: wgpu::RenderPipeline,
    overlay_dots: wgpu::RenderPipeline,
    splat: wgpu::RenderPipeline,
}

/// One view's offscreen target and buffers.
struct Target {
    size: [u32; 2],
    /// Multisampled colour (none at one sample: draw into `resolved`).
    msaa: Option<wgpu::TextureView>,
    resolved: wgpu::TextureView,
    depth: wgpu::TextureView,
    uniform: wgpu::Buffer,
    view_group: wgpu::BindGroup,
    blit_group: wgpu::BindGroup,
    vertices: wgpu::Buffer,
    dots: wgpu::Buffer,
    /// The stamped points' colours and depths (the view's size).
    splat_color: wgpu::Texture,
    splat_depth: wgpu::Texture,
    splat_group: wgpu::BindGroup,
}

/// Puts the pipelines into `render_state`'s callback resources, once; the
/// views draw through them from then on. `render_state.target_format` is
/// the format of egui's pass, which the copy into it must match.
pub fn install(render_state: &egui_wgpu::RenderState) {
    if render_state
        .renderer
        .read()
        .callback_resources
        .contains::<Resources>()
    {
        return;
    }
    let mut renderer = render_state.renderer.write();
    if renderer.callback_resources.contains::<Resources>() {
        return;
    }
    let four = [COLOR_FORMAT, DEPTH_FORMAT].iter().all(|f| {
        render_state
            .adapter
            .get_texture_format_features(*f)
            .flags
            .sample_count_supported(4)
    });
    let counts: &[u32] = if four { &[4, 1] } else { &[1] };
    let software = render_state.adapter.get_info().device_type == wgpu::DeviceType::Cpu;
    let resources = Resources::new(
        &render_state.device,
        render_state.target_format,
        counts,
        software,
    );
    renderer.callback_resources.insert(resources);
}

/// What a pipeline draws.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Triangles (`vs`, `fs`).
    Triangles,
    /// Round points, one instance each (`dot_vs`, `fs`).
    Dots,
    /// The stamped points' image (`blit_vs`, `splat_fs`).
    Splat,
}

/// What differs between the views' pipelines.
#[derive(Clone)]
struct Layer {
    label: &'static str,
    kind: Kind,
    depth_write: bool,
    compare: wgpu::CompareFunction,
}

impl Resources {
    #[allow(clippy::too_many_lines)] // wgpu's descriptors: one pipeline per layer, spelled out
    fn new(
        device: &wgpu::Device,
        target_format: wgpu::TextureFormat,
        counts: &[u32],
        software: bool,
    ) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("cspace view shader"),
            source: wgpu::ShaderSource::Wgsl(include_str!("view.wgsl").into()),
        });
        let view_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("cspace view uniform"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let blit_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("cspace view blit"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        multisampled: false,
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let texel = |binding, sample_type| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Texture {
                multisampled: false,
                sample_type,
                view_dimension: wgpu::TextureViewDimension::D2,
            },
            count: None,
        };
        let splat_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("cspace view splat"),
            entries: &[
                texel(3, wgpu::TextureSampleType::Float { filterable: false }),
                texel(4, wgpu::TextureSampleType::Float { filterable: false }),
            ],
        });
        let premultiplied = wgpu::BlendState {
            color: wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::One,
                dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                operation: wgpu::BlendOperation::Add,
            },
            alpha: wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::One,
                dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                operation: wgpu::BlendOperation::Add,
            },
        };
        let view_pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("cspace view"),
            bind_group_layouts: &[Some(&view_layout)],
            immediate_size: 0,
        });
        let triangle = wgpu::VertexBufferLayout {
            array_stride: VERTEX_BYTES,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32, 2 => Unorm8x4],
        };
        let dot = wgpu::VertexBufferLayout {
            array_stride: DOT_BYTES,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &wgpu::vertex_attr_array![
                0 => Float32x2, 1 => Float32, 2 => Unorm8x4, 3 => Float32x2
            ],
        };
        let splat_pipeline_layout =
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("cspace view splat"),
                bind_group_layouts: &[Some(&splat_layout)],
                immediate_size: 0,
            });
        let layer = |l: Layer, samples: u32| {
            let (vs, fs, buffers, layout) = match l.kind {
                Kind::Triangles => (
                    "vs",
                    "fs",
                    vec![Some(triangle.clone())],
                    &view_pipeline_layout,
                ),
                Kind::Dots => (
                    "dot_vs",
                    "fs",
                    vec![Some(dot.clone())],
                    &view_pipeline_layout,
                ),
                // One triangle over the view, cut to the stamped rectangle.
                Kind::Splat => ("blit_vs", "splat_fs", vec![], &splat_pipeline_layout),
            };
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(l.label),
                layout: Some(layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some(vs),
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                    buffers: &buffers,
                },
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(l.depth_write),
                    depth_compare: Some(l.compare),
                    stencil: wgpu::StencilState::default(),
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: samples,
                    mask: !0,
                    alpha_to_coverage_enabled: false,
                },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some(fs),
                    compilation_options: wgpu::PipelineCompilationOptions::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: COLOR_FORMAT,
                        blend: Some(premultiplied),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let solid = |label, kind| Layer {
            label,
            kind,
            depth_write: true,
            compare: wgpu::CompareFunction::GreaterEqual,
        };
        let overlay = |label, kind| Layer {
            label,
            kind,
            depth_write: false,
            compare: wgpu::CompareFunction::Always,
        };
        let fills = Layer {
            label: "cspace fills",
            kind: Kind::Triangles,
            depth_write: false,
            compare: wgpu::CompareFunction::GreaterEqual,
        };
        let blit_pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("cspace view blit"),
            bind_group_layouts: &[Some(&blit_layout)],
            immediate_size: 0,
        });
        let blit = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("cspace view blit"),
            layout: Some(&blit_pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("blit_vs"),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                buffers: &[],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some(if target_format.is_srgb() {
                    "blit_fs_linear"
                } else {
                    "blit_fs_gamma"
                }),
                compilation_options: wgpu::PipelineCompilationOptions::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: target_format,
                    blend: Some(premultiplied),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("cspace view blit"),
            // The target is the view's size in pixels: texel for pixel.
            mag_filter: wgpu::FilterMode::Nearest,
            min_filter: wgpu::FilterMode::Nearest,
            ..Default::default()
        });
        let sets = counts
            .iter()
            .map(|&samples| Pipelines {
                samples,
                solid: layer(solid("cspace solid", Kind::Triangles), samples),
                solid_dots: layer(solid("cspace solid points", Kind::Dots), samples),
                // The stamped points: colour and depth per pixel, depth-tested
                // and written as the solid layer is.
                splat: layer(solid("cspace view splat", Kind::Splat), samples),
                fills: layer(fills.clone(), samples),
                overlay: layer(overlay("cspace overlay", Kind::Triangles), samples),
                overlay_dots: layer(overlay("cspace overlay points", Kind::Dots), samples),
            })
            .collect();
        Self {
            sets,
            software,
            blit,
            view_layout,
            blit_layout,
            splat_layout,
            sampler,
            targets: HashMap::new(),
        }
    }

    /// The multisampling `geometry` is drawn with: 4 where the adapter has
    /// it, except for a bulk of stamped points on a software rasteriser.
    pub fn samples(&self, geometry: &Geometry) -> u32 {
        let most = self.sets[0].samples;
        if self.software && geometry.splat.is_some() {
            1
        } else {
            most
        }
    }

    /// Makes (or remakes) the target of view `key` for `size` pixels and
    /// `samples`.
    fn ensure_target(&mut self, device: &wgpu::Device, key: u64, size: [u32; 2], samples: u32) {
        if self
            .targets
            .get(&(key, samples))
            .is_none_or(|t| t.size != size)
        {
            let target = Target::new(self, device, size, samples);
            self.targets.insert((key, samples), target);
        }
    }
}

impl Target {
    fn new(r: &Resources, device: &wgpu::Device, size: [u32; 2], samples: u32) -> Self {
        let make = |label, format, samples, usage| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width: size[0],
                    height: size[1],
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: &[],
            })
        };
        let texture = |label, format, samples, usage| {
            make(label, format, samples, usage).create_view(&wgpu::TextureViewDescriptor::default())
        };
        let attach = wgpu::TextureUsages::RENDER_ATTACHMENT;
        let msaa =
            (samples > 1).then(|| texture("cspace view msaa", COLOR_FORMAT, samples, attach));
        let resolved = texture(
            "cspace view",
            COLOR_FORMAT,
            1,
            attach | wgpu::TextureUsages::TEXTURE_BINDING,
        );
        let depth = texture("cspace view depth", DEPTH_FORMAT, samples, attach);
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("cspace view size"),
            size: 16,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let view_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("cspace view uniform"),
            layout: &r.view_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: uniform.as_entire_binding(),
            }],
        });
        let sampled = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
        let splat_color = make("cspace view splat colour", COLOR_FORMAT, 1, sampled);
        let splat_depth = make(
            "cspace view splat depth",
            wgpu::TextureFormat::R32Float,
            1,
            sampled,
        );
        let view_of = |t: &wgpu::Texture| t.create_view(&wgpu::TextureViewDescriptor::default());
        let splat_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("cspace view splat"),
            layout: &r.splat_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::TextureView(&view_of(&splat_color)),
                },
                wgpu::BindGroupEntry {
                    binding: 4,
                    resource: wgpu::BindingResource::TextureView(&view_of(&splat_depth)),
                },
            ],
        });
        let blit_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("cspace view blit"),
            layout: &r.blit_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&resolved),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Sampler(&r.sampler),
                },
            ],
        });
        Self {
            size,
            msaa,
            resolved,
            depth,
            uniform,
            view_group,
            blit_group,
            vertices: vertex_buffer(device, 1 << 16),
            dots: vertex_buffer(device, 1 << 16),
            splat_color,
            splat_depth,
            splat_group,
        }
    }
}

fn vertex_buffer(device: &wgpu::Device, bytes: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("cspace view vertices"),
        size: bytes,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Records the offscreen pass of view `key`: uploads `geometry` and draws
/// its layers into a `size_points` × `pixels_per_point` target.
pub fn render(
    resources: &mut Resources,
    (device, queue): (&wgpu::Device, &wgpu::Queue),
    encoder: &mut wgpu::CommandEncoder,
    key: u64,
    geometry: &Geometry,
    (size_points, pixels_per_point): ([f32; 2], f32),
) {
    let px = Pixels::of(size_points, pixels_per_point).size;
    let samples = resources.samples(geometry);
    resources.ensure_target(device, key, px, samples);
    let Resources { sets, targets, .. } = resources;
    let Some(Pipelines {
        solid,
        solid_dots,
        splat,
        fills,
        overlay,
        overlay_dots,
        ..
    }) = sets.iter().find(|p| p.samples == samples)
    else {
        return;
    };
    let target = targets
        .get_mut(&(key, samples))
        .expect("made just above when missing");
    let words: Vec<u32> = [size_points[0], size_points[1], 0.0, 0.0]
        .iter()
        .map(|v| v.to_bits())
        .collect();
    queue.write_buffer(&target.uniform, 0, bytemuck::cast_slice(&words));
    // Triangles: solid, fills, overlay; points: solid, overlay.
    let tris = [&geometry.solid, &geometry.fills, &geometry.overlay];
    let dots = [&geometry.solid_dots, &geometry.overlay_dots];
    let tri_ranges = upload(device, queue, &mut target.vertices, &tris);
    let dot_ranges = upload(device, queue, &mut target.dots, &dots);
    // The stamped points, where they fit the target (a frame built for
    // another size, mid-resize, is left out for one frame).
    let stamped = geometry
        .splat
        .as_ref()
        .filter(|s| s.origin[0] + s.size[0] <= px[0] && s.origin[1] + s.size[1] <= px[1]);
    if let Some(s) = stamped {
        upload_splat(queue, target, s);
    }
    let (view, resolve) = match &target.msaa {
        Some(msaa) => (msaa, Some(&target.resolved)),
        None => (&target.resolved, None),
    };
    let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("cspace view"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: resolve,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
            view: &target.depth,
            depth_ops: Some(wgpu::Operations {
                load: wgpu::LoadOp::Clear(0.0),
                store: wgpu::StoreOp::Discard,
            }),
            stencil_ops: None,
        }),
        ..Default::default()
    });
    pass.set_bind_group(0, &target.view_group, &[]);
    if !tri_ranges[0].is_empty() {
        pass.set_pipeline(solid);
        pass.set_vertex_buffer(0, target.vertices.slice(..));
        pass.draw(tri_ranges[0].clone(), 0..1);
    }
    if let Some(s) = stamped {
        pass.set_pipeline(splat);
        pass.set_bind_group(0, &target.splat_group, &[]);
        pass.set_scissor_rect(s.origin[0], s.origin[1], s.size[0], s.size[1]);
        pass.draw(0..3, 0..1);
        pass.set_scissor_rect(0, 0, px[0], px[1]);
        pass.set_bind_group(0, &target.view_group, &[]);
    }
    let draws = [
        (solid_dots, true, dot_ranges[0].clone()),
        (fills, false, tri_ranges[1].clone()),
        (overlay, false, tri_ranges[2].clone()),
        (overlay_dots, true, dot_ranges[1].clone()),
    ];
    for (pipeline, is_dots, range) in draws {
        if range.is_empty() {
            continue;
        }
        pass.set_pipeline(pipeline);
        if is_dots {
            pass.set_vertex_buffer(0, target.dots.slice(..));
            pass.draw(0..6, range);
        } else {
            pass.set_vertex_buffer(0, target.vertices.slice(..));
            pass.draw(range, 0..1);
        }
    }
}

/// Writes the stamped points' rectangle into the target's splat textures.
fn upload_splat(queue: &wgpu::Queue, target: &Target, s: &Splat) {
    let extent = wgpu::Extent3d {
        width: s.size[0],
        height: s.size[1],
        depth_or_array_layers: 1,
    };
    let layout = wgpu::TexelCopyBufferLayout {
        offset: 0,
        bytes_per_row: Some(4 * s.size[0]),
        rows_per_image: Some(s.size[1]),
    };
    let at = |texture| wgpu::TexelCopyTextureInfo {
        texture,
        mip_level: 0,
        origin: wgpu::Origin3d {
            x: s.origin[0],
            y: s.origin[1],
            z: 0,
        },
        aspect: wgpu::TextureAspect::All,
    };
    queue.write_texture(
        at(&target.splat_color),
        bytemuck::cast_slice(&s.color),
        layout,
        extent,
    );
    queue.write_texture(
        at(&target.splat_depth),
        bytemuck::cast_slice(&s.depth),
        layout,
        extent,
    );
}

/// Writes `lists` one after another into `buffer` (grown when too small);
/// returns each list's range of elements.
fn upload<T: bytemuck::Pod>(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    buffer: &mut wgpu::Buffer,
    lists: &[&Vec<T>],
) -> Vec<std::ops::Range<u32>> {
    let size = std::mem::size_of::<T>() as u64;
    let total: u64 = lists.iter().map(|l| l.len() as u64).sum::<u64>() * size;
    if total > buffer.size() {
        *buffer = vertex_buffer(device, total.next_power_of_two());
    }
    let mut ranges = Vec::with_capacity(lists.len());
    let mut first = 0u32;
    for list in lists {
        if !list.is_empty() {
            queue.write_buffer(buffer, u64::from(first) * size, bytemuck::cast_slice(list));
        }
        let n = list.len() as u32;
        ranges.push(first..first + n);
        first += n;
    }
    ranges
}

/// The paint callback of one view: its geometry, drawn offscreen in
/// `prepare` and copied into egui's pass in `paint`.
pub struct ViewPaint {
    /// Which view (its widget id): each has its own target.
    pub key: u64,
    /// What to draw.
    pub geometry: Arc<Geometry>,
    /// The view's size in points.
    pub size: [f32; 2],
}

impl CallbackTrait for ViewPaint {
    fn prepare(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        screen: &ScreenDescriptor,
        encoder: &mut wgpu::CommandEncoder,
        resources: &mut CallbackResources,
    ) -> Vec<wgpu::CommandBuffer> {
        if let Some(r) = resources.get_mut::<Resources>() {
            render(
                r,
                (device, queue),
                encoder,
                self.key,
                &self.geometry,
                (self.size, screen.pixels_per_point),
            );
        }
        Vec::new()
    }

    fn paint(
        &self,
        _info: egui::PaintCallbackInfo,
        pass: &mut wgpu::RenderPass<'static>,
        resources: &CallbackResources,
    ) {
        let Some(r) = resources.get::<Resources>() else {
            return;
        };
        let Some(target) = r.targets.get(&(self.key, r.samples(&self.geometry))) else {
            return;
        };
        pass.set_pipeline(&r.blit);
        pass.set_bind_group(0, &target.blit_group, &[]);
        pass.draw(0..3, 0..1);
    }
}
