__version__ = "0.0.1"

import warnings
# fastai compiles a few layers with torch.jit.script at import time, which torch >= 2.10 marks deprecated: not ours to fix
warnings.filterwarnings('ignore', message=r'`torch\.jit\.script` is deprecated', category=FutureWarning)
# tqdm.auto (imported by a dependency) warns in Jupyter kernels without ipywidgets; the docs' outputs should not show it
warnings.filterwarnings('ignore', message='IProgress not found')
