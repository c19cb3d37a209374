__version__ = "0.0.1"

import importlib, pkgutil, warnings
# fastai compiles a few layers with torch.jit.script at import time, which torch >= 2.10 marks deprecated
warnings.filterwarnings('ignore', message=r'`torch\.jit\.script` is deprecated', category=FutureWarning)
# tqdm.auto (imported by a dependency) warns in Jupyter kernels without ipywidgets; the docs' outputs should not show it
warnings.filterwarnings('ignore', message='IProgress not found')

def _modules()->set: return {m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith('_')}

def __getattr__(name:str):
    "Import a submodule on first use: `import gridpe; gridpe.rope.GridPE(...)` works and `import gridpe` stays light."
    if name in _modules(): return importlib.import_module(f'{__name__}.{name}')
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

def __dir__(): return sorted(set(globals()) | _modules())
