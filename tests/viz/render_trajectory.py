#!/usr/bin/env python3
"""Loads an mdremap VTK trajectory (the .pvd collection and its .vtp frames) with VTK's own
Python, renders the first and the last frame side by side off-screen, writes a PNG and checks
it: its size, that it is not blank, and that every atom's centre, projected through the camera
to a pixel, is drawn (not background), with nothing drawn outside the atoms' projected extent.

    render_trajectory.py PVD PNG --atoms N --frames F [--fcc-density RHO]

With --fcc-density the first frame must be that fcc lattice (the deck's start). Run without a
display under `xvfb-run -a` (Debian's VTK renders through GLX). tests/viz/test_viz.cpp runs it on
a short melt; docs/trajectory.png is its picture.
"""
import argparse
import os
import sys
import xml.etree.ElementTree as ET

import numpy as np
import vtkmodules.vtkRenderingOpenGL2  # noqa: F401  (the OpenGL back end)
from vtkmodules.util.numpy_support import numpy_to_vtk, vtk_to_numpy
from vtkmodules.vtkFiltersSources import vtkSphereSource
from vtkmodules.vtkIOImage import vtkPNGWriter
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
from vtkmodules.vtkRenderingCore import (vtkActor, vtkColorTransferFunction, vtkCoordinate,
                                         vtkGlyph3DMapper, vtkRenderer, vtkRenderWindow,
                                         vtkWindowToImageFilter)

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from png_image import not_background, read_png

WIDTH, HEIGHT = 1000, 500
BACKGROUND = (1.0, 1.0, 1.0)
RADIUS = 0.3  # sphere radius in sigma: small enough to see the lattice planes


def load_collection(pvd, n_atoms):
    """(time, file, polydata, positions) per DataSet of the collection, in its order."""
    root = ET.parse(pvd).getroot()
    assert root.tag == "VTKFile" and root.get("type") == "Collection", f"{pvd}: not a collection"
    frames = []
    for ds in root.find("Collection").findall("DataSet"):
        path = os.path.join(os.path.dirname(os.path.abspath(pvd)), ds.get("file"))
        assert os.path.isfile(path), f"{pvd} names {path}, which is missing"
        reader = vtkXMLPolyDataReader()
        reader.SetFileName(path)
        reader.Update()
        poly = reader.GetOutput()
        assert poly.GetNumberOfPoints() == n_atoms, (path, poly.GetNumberOfPoints())
        data = poly.GetPointData()
        for name, width in (("id", 1), ("type", 1), ("velocity", 3), ("force", 3)):
            array = data.GetArray(name)
            assert array is not None, f"{path}: no point array '{name}'"
            assert array.GetNumberOfComponents() == width, (path, name)
        ids = vtk_to_numpy(data.GetArray("id"))
        assert (np.diff(ids) > 0).all(), f"{path}: atoms not in id order"
        x = vtk_to_numpy(poly.GetPoints().GetData()).astype(float)
        assert np.isfinite(x).all(), path
        # Each frame's step, time and box as field data; the collection gives step and time.
        field = poly.GetFieldData()
        for name, width in (("step", 1), ("TimeValue", 1), ("box_lo", 3), ("box_len", 3)):
            array = field.GetArray(name)
            assert array is not None, f"{path}: no field array '{name}'"
            assert array.GetNumberOfComponents() == width, (path, name)
        assert int(field.GetArray("step").GetTuple1(0)) == int(ds.get("step")), path
        assert field.GetArray("TimeValue").GetTuple1(0) == float(ds.get("timestep")), path
        lo = np.array(field.GetArray("box_lo").GetTuple3(0))
        length = np.array(field.GetArray("box_len").GetTuple3(0))
        assert (length > 0).all(), path
        # Positions are wrapped at list builds: within a skin of the box.
        assert (x > lo - 1.0).all() and (x < lo + length + 1.0).all(), f"{path}: outside its box"
        frames.append((float(ds.get("timestep")), path, poly, x))
    times = [f[0] for f in frames]
    assert times == sorted(times) and len(set(times)) == len(times), f"times {times}"
    return frames


def check_fcc(x, density):
    """Positions on the fcc lattice of this density: in units of half the cubic cell, integer
    coordinates with an even sum (the fcc sites of the simple-cubic half lattice)."""
    half = 0.5 * (4.0 / density) ** (1.0 / 3.0)
    g = (x - x.min(axis=0)) / half
    k = np.rint(g)
    assert np.abs(g - k).max() < 1e-6, f"first frame is not a lattice of spacing {half}"
    assert (k.sum(axis=1) % 2 == 0).all(), "first frame lattice is not fcc"
    assert len({tuple(r) for r in k.astype(int)}) == len(x), "two atoms on one site"


def speed_lut(vmax):
    lut = vtkColorTransferFunction()
    lut.AddRGBPoint(0.0, 0.23, 0.30, 0.75)
    lut.AddRGBPoint(0.5 * vmax, 0.60, 0.60, 0.62)
    lut.AddRGBPoint(vmax, 0.71, 0.02, 0.15)
    return lut


def atoms_actor(poly, lut):
    speed = np.linalg.norm(vtk_to_numpy(poly.GetPointData().GetArray("velocity")), axis=1)
    array = numpy_to_vtk(np.ascontiguousarray(speed), deep=True)
    array.SetName("speed")
    poly.GetPointData().AddArray(array)
    sphere = vtkSphereSource()
    sphere.SetRadius(RADIUS)
    sphere.SetThetaResolution(16)
    sphere.SetPhiResolution(12)
    mapper = vtkGlyph3DMapper()
    mapper.SetInputData(poly)
    mapper.SetSourceConnection(sphere.GetOutputPort())
    mapper.ScalingOff()
    mapper.SetScalarModeToUsePointFieldData()
    mapper.SelectColorArray("speed")
    mapper.SetLookupTable(lut)
    mapper.SetColorModeToMapScalars()
    actor = vtkActor()
    actor.SetMapper(mapper)
    prop = actor.GetProperty()
    prop.SetAmbient(0.3)
    prop.SetDiffuse(0.7)
    prop.SetSpecular(0.0)  # no highlights: nothing on an atom turns background white
    return actor


def render(frames, png):
    first, last = frames[0], frames[-1]
    vmax = max(np.percentile(np.linalg.norm(vtk_to_numpy(f[2].GetPointData().GetArray("velocity")),
                                            axis=1), 99) for f in (first, last))
    lut = speed_lut(vmax)
    window = vtkRenderWindow()
    window.SetOffScreenRendering(1)
    window.SetMultiSamples(0)  # no anti-aliasing: the background stays one exact colour
    window.SetSize(WIDTH, HEIGHT)
    renderers = []
    for k, frame in enumerate((first, last)):
        ren = vtkRenderer()
        ren.SetViewport(0.5 * k, 0.0, 0.5 * (k + 1), 1.0)
        ren.SetBackground(*BACKGROUND)
        ren.AddActor(atoms_actor(frame[2], lut))
        window.AddRenderer(ren)
        renderers.append(ren)
    # One camera for both frames, fitted to the first and turned to show three faces.
    ren0 = renderers[0]
    ren0.ResetCamera()
    camera = ren0.GetActiveCamera()
    camera.Azimuth(30)
    camera.Elevation(25)
    camera.OrthogonalizeViewUp()
    ren0.ResetCamera()  # fits the bounding sphere: the turned box stays in view
    renderers[1].SetActiveCamera(camera)
    window.Render()
    grab = vtkWindowToImageFilter()
    grab.SetInput(window)
    grab.SetInputBufferTypeToRGB()
    grab.ReadFrontBufferOff()
    grab.Update()
    writer = vtkPNGWriter()
    writer.SetFileName(png)
    writer.SetCompressionLevel(9)
    writer.SetInputConnection(grab.GetOutputPort())
    writer.Write()
    return window, renderers, camera  # the window too: the renderers need it to project


def projected(ren, camera, x):
    """Pixel (column, row from the top) of each position, and the largest sphere radius in
    pixels (the radius along the camera's view-up, projected)."""
    coord = vtkCoordinate()
    coord.SetCoordinateSystemToWorld()
    up = np.array(camera.GetViewUp())
    up /= np.linalg.norm(up)
    centres, radius = [], 0.0
    for p in x:
        coord.SetValue(*p)
        c = np.array(coord.GetComputedDoubleDisplayValue(ren))
        coord.SetValue(*(p + RADIUS * up))
        radius = max(radius, np.linalg.norm(np.array(coord.GetComputedDoubleDisplayValue(ren)) - c))
        centres.append(c)
    c = np.array(centres)
    return np.rint(c[:, 0]).astype(int), (HEIGHT - 1 - np.rint(c[:, 1])).astype(int), radius


def check_image(png, renderers, camera, frames):
    pixels = read_png(png)
    assert pixels.shape == (HEIGHT, WIDTH, 3), f"{png}: size {pixels.shape}, want {HEIGHT}x{WIDTH}"
    assert pixels.std() > 10, f"{png}: blank (pixel standard deviation {pixels.std():.2f})"
    drawn = not_background(pixels, [round(255 * b) for b in BACKGROUND])
    for k, (ren, frame) in enumerate(zip(renderers, (frames[0], frames[-1]))):
        lo_col, hi_col = k * WIDTH // 2, (k + 1) * WIDTH // 2
        view = drawn[:, lo_col:hi_col]
        share = view.mean()
        assert 0.05 < share < 0.9, f"viewport {k}: {share:.1%} of pixels drawn"
        cols, rows, radius = projected(ren, camera, frame[3])
        inside = (cols >= lo_col) & (cols < hi_col) & (rows >= 0) & (rows < HEIGHT)
        assert inside.all(), f"viewport {k}: {np.count_nonzero(~inside)} atoms outside the view"
        missing = np.count_nonzero(~drawn[rows, cols])
        assert missing == 0, f"viewport {k}: {missing} of {len(rows)} atom centres not drawn"
        # Drawn pixels lie within the atoms' projected extent plus one sphere radius.
        r_idx, c_idx = np.nonzero(view)
        c_idx = c_idx + lo_col
        margin = int(np.ceil(radius)) + 2
        assert r_idx.min() >= rows.min() - margin and r_idx.max() <= rows.max() + margin, \
            f"viewport {k}: drawn rows {r_idx.min()}-{r_idx.max()}, atoms {rows.min()}-{rows.max()}"
        assert c_idx.min() >= cols.min() - margin and c_idx.max() <= cols.max() + margin, \
            f"viewport {k}: drawn columns {c_idx.min()}-{c_idx.max()}, atoms {cols.min()}-{cols.max()}"
        print(f"viewport {k}: time {frame[0]:g}, {len(rows)} atom centres drawn, {share:.1%} of "
              f"pixels, sphere radius {radius:.1f} px")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pvd")
    ap.add_argument("png")
    ap.add_argument("--atoms", type=int, required=True)
    ap.add_argument("--frames", type=int, required=True)
    ap.add_argument("--fcc-density", type=float)
    a = ap.parse_args()
    frames = load_collection(a.pvd, a.atoms)
    assert len(frames) == a.frames, f"{a.pvd}: {len(frames)} frames, want {a.frames}"
    if a.fcc_density:
        check_fcc(frames[0][3], a.fcc_density)
    moved = np.abs(frames[-1][3] - frames[0][3]).max()
    assert moved > 1e-3, "the last frame has the first frame's positions"
    window, renderers, camera = render(frames, a.png)
    check_image(a.png, renderers, camera, frames)
    print(f"OK render_trajectory: {len(frames)} frames of {a.atoms} atoms, {a.png}")


if __name__ == "__main__":
    sys.exit(main())
