"""PNG files as numpy arrays (rows top to bottom, RGB), read with VTK's PNG reader (Debian
python3-vtk9), shared by the image checks in this folder."""
import numpy as np
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOImage import vtkPNGReader


def read_png(path):
    reader = vtkPNGReader()
    if not reader.CanReadFile(path):
        raise AssertionError(f"{path}: not a PNG file")
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    w, h, _ = image.GetDimensions()
    c = image.GetNumberOfScalarComponents()
    pixels = vtk_to_numpy(image.GetPointData().GetScalars()).reshape(h, w, c)[::-1]
    if c < 3:
        pixels = np.repeat(pixels[..., :1], 3, axis=2)
    return pixels[..., :3].astype(np.int16)


def not_background(pixels, background, tolerance=8):
    """Mask of pixels that differ from the background colour by more than `tolerance`."""
    return (np.abs(pixels - np.asarray(background, dtype=np.int16)) > tolerance).any(axis=2)
